/**
 * One request at a time (docs/architecture.md section 9):
 *  (a) median latency of GET /api/account/courses (the BFF data route) divided by the same GraphQL
 *      operation sent straight to the site with the same member's token; target at most 1.10;
 *  (b) JavaScript shipped to the Overview page (gzip) divided by that of an empty page of the same app
 *      (the 404 page: the root layout and nothing else); target at most 1.3;
 *  (c) requests to the site per page view in a real browser: exactly 1.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { gzipSync } from "node:zlib";

import { chromium } from "@playwright/test";

import { COURSES_DOCUMENT, COURSES_PAGE_SIZE, coursesPage } from "../../lib/account/pages/courses";
import { postSandboxControl } from "../../sandbox/testing";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../tests/support/chromium";
import { round, type BenchContext, type BenchSection } from "./context";
import { percentile } from "./load";
import { Cookies } from "./members";
import { progress } from "./progress";

const WARMUP = 5;

async function timed(run: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await run();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`benchmark request failed with ${response.status}`);
  return performance.now() - started;
}

export function directCoursesRequest(context: BenchContext): {
  url: string;
  init: RequestInit & { body: string; headers: Record<string, string> };
} {
  return {
    url: `${context.target.siteUrl}/account/graphql`,
    init: {
      method: "POST",
      headers: { authorization: `Bearer ${context.directToken}`, "content-type": "application/json" },
      body: JSON.stringify({ query: COURSES_DOCUMENT, variables: coursesPage.variables(null, COURSES_PAGE_SIZE) }),
    },
  };
}

/**
 * A plain node:http server in its own process, answering the same small JSON as `/api/health`: what
 * any Node server costs a request (parsing, one write, the hop between processes). `/api/health`
 * minus this is what Next.js itself adds to every request it routes (the front door spares the data routes that).
 */
async function startPlainServer(): Promise<{ url: string; stop: () => void }> {
  const program = `
    const server = require("node:http").createServer((request, response) => {
      response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      response.end('{"ok":true}');
    });
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ["-e", program], { stdio: ["ignore", "pipe", "inherit"] });
  const [port] = (await once(child.stdout, "data")) as [Buffer];
  return { url: `http://127.0.0.1:${port.toString().trim()}/`, stop: () => child.kill() };
}

interface Latencies {
  route: number;
  direct: number;
  /** `/api/health`: a Next.js route that calls nothing. */
  floor: number;
  /** A plain node:http server answering the same. */
  plain: number;
}

async function measureLatency(context: BenchContext): Promise<Latencies> {
  const { appUrlIPv4 } = context.target;
  const direct = directCoursesRequest(context);
  const plainServer = await startPlainServer();
  const viaRoute = () => fetch(`${appUrlIPv4}/api/account/courses`, { headers: { cookie: context.member.header() } });
  const viaSite = () => fetch(direct.url, direct.init);
  const health = () => fetch(`${appUrlIPv4}/api/health`);
  const plain = () => fetch(plainServer.url);
  const times: Record<keyof Latencies, number[]> = { route: [], direct: [], floor: [], plain: [] };
  const total = context.options.rounds + WARMUP;
  try {
    for (let index = 0; index < total; index += 1) {
      if ((index + 1) % 20 === 0 || index + 1 === total) progress("one request at a time", index + 1, total);
      // Interleaved, alternating which goes first, so drift and ordering effects cancel.
      const pair =
        index % 2 === 0 ? [await timed(viaRoute), await timed(viaSite)] : [await timed(viaSite), await timed(viaRoute)].reverse();
      const floor = await timed(health);
      const bare = await timed(plain);
      if (index < WARMUP) continue;
      times.route.push(pair[0]!);
      times.direct.push(pair[1]!);
      times.floor.push(floor);
      times.plain.push(bare);
    }
  } finally {
    plainServer.stop();
  }
  return {
    route: percentile(times.route, 0.5),
    direct: percentile(times.direct, 0.5),
    floor: percentile(times.floor, 0.5),
    plain: percentile(times.plain, 0.5),
  };
}

export const sequentialLatency: BenchSection = {
  name: "latency",
  title: "(a) one request at a time: data route vs direct GraphQL",
  enabled: () => true,
  async run(context) {
    const latency = await measureLatency(context);
    const ratio = round(latency.route / latency.direct, 3);
    // The data route is answered at the front door (lib/http/front-door.ts), without Next.js's router:
    // what Next.js adds to a request it routes, measured on /api/health, is what the front door saves.
    const nextJsShare = Math.max(0, latency.floor - latency.plain);
    return {
      summary: [
        `(a) data route vs direct GraphQL, median latency: ${round(latency.route)} ms / ${round(latency.direct)} ms = ${ratio}` +
          " (target <= 1.10)",
        `    the data route adds ${round(latency.route - latency.direct, 2)} ms to the direct call, a plain node:http server's` +
          ` round trip is ${round(latency.plain, 2)} ms; a route Next.js serves (/api/health) answers in ${round(latency.floor, 2)} ms:` +
          ` the front door saves the data route Next.js's ${round(nextJsShare, 2)} ms`,
      ],
      results: {
        rounds: context.options.rounds,
        routeMedianMs: round(latency.route),
        directMedianMs: round(latency.direct),
        ratio,
        target: 1.1,
        frameworkFloorMs: round(latency.floor, 2),
        plainServerMs: round(latency.plain, 2),
        nextJsShareMs: round(nextJsShare, 2),
      },
    };
  },
};

async function shippedJavaScript(appUrl: string, pathname: string, cookies: Cookies): Promise<number> {
  const html = await (await fetch(`${appUrl}${pathname}`, { headers: { cookie: cookies.header() } })).text();
  const sources = new Set([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]!));
  let total = 0;
  for (const source of sources) {
    const script = Buffer.from(await (await fetch(new URL(source, appUrl))).arrayBuffer());
    total += gzipSync(script, { level: 9 }).length;
  }
  // Inline scripts (the RSC payload) are part of what the page ships too.
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g))
    total += gzipSync(Buffer.from(match[1]!), { level: 9 }).length;
  return total;
}

export const shippedJavaScriptSize: BenchSection = {
  name: "javascript",
  title: "(b) JavaScript shipped to Overview vs an empty page",
  enabled: () => true,
  async run(context) {
    const overview = await shippedJavaScript(context.target.appUrl, "/", context.member);
    const empty = await shippedJavaScript(context.target.appUrl, "/bench-empty-page", new Cookies());
    const ratio = round(overview / empty, 3);
    return {
      summary: [`(b) JavaScript shipped, gzip: Overview ${overview} B / empty page ${empty} B = ${ratio} (target <= 1.3)`],
      results: { overviewGzipBytes: overview, emptyPageGzipBytes: empty, ratio, target: 1.3 },
    };
  },
};

const PAGES = ["/", "/courses", "/orders", "/events", "/settings"];

/** Site requests per page view, by endpoint, counted on a second view of each page (warm caches). */
export const siteRequestsPerPageView: BenchSection = {
  name: "siteRequestsPerPageView",
  title: "(c) requests to the site per page view, in Chromium",
  enabled: () => true,
  async run(context) {
    const { appUrl, siteUrl } = context.target;
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const counts: Record<string, Record<string, number>> = {};
    try {
      const browserContext = await browser.newContext();
      await browserContext.addCookies(context.member.list().map(({ name, value }) => ({ name, value, url: appUrl })));
      const page = await browserContext.newPage();
      for (const [index, pathname] of PAGES.entries()) {
        progress(pathname, index + 1, PAGES.length, "page");
        await page.goto(`${appUrl}${pathname}`, { waitUntil: "networkidle" });
        await postSandboxControl(siteUrl, "/__sandbox/reset");
        await page.goto(`${appUrl}${pathname}`, { waitUntil: "networkidle" });
        const log = (await (await fetch(`${siteUrl}/__sandbox/requests`)).json()) as { endpoint: string }[];
        const byEndpoint: Record<string, number> = {};
        // API calls only: course cover images are public files the browser loads from the site itself.
        for (const entry of log)
          if (!["control", "page"].includes(entry.endpoint)) byEndpoint[entry.endpoint] = (byEndpoint[entry.endpoint] ?? 0) + 1;
        counts[pathname] = byEndpoint;
      }
    } finally {
      await browser.close();
    }
    const describe = (byEndpoint: Record<string, number>) =>
      Object.entries(byEndpoint)
        .map(([endpoint, count]) => `${count} ${endpoint}`)
        .join(" + ") || "none";
    return {
      summary: [
        `(c) requests to the site per page view: ${Object.entries(counts)
          .map(([page, byEndpoint]) => `${page} ${describe(byEndpoint)}`)
          .join("; ")} (target: 1 Account API request per data page)`,
      ],
      results: counts,
    };
  },
};
