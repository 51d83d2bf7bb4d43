/**
 * One request at a time (docs/architecture.md section 9):
 *  (a) median latency of GET /api/account/courses (the BFF data route) divided by the same GraphQL
 *      operation sent straight to the site with the same member's token, once every side has served
 *      WARM_UP_REQUESTS (a server in service); target at most 1.10. The fresh process's first rounds are
 *      printed beside it;
 *  (b) JavaScript shipped to the Overview page (gzip) divided by that of an empty page of the same app
 *      (the 404 page: the root layout and nothing else); target at most 1.3;
 *  (c) requests to the site per page view in a real browser: exactly 1.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { gzipSync } from "node:zlib";

import { chromium } from "@playwright/test";

import { COURSES_DOCUMENT, COURSES_PAGE_SIZE } from "../../lib/account-api/pages/courses";
import { postSandboxControl } from "../../sandbox/testing";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../tests/support/chromium";
import { round, type BenchContext, type BenchSection } from "./context";
import { percentile } from "./load";
import { Cookies } from "./members";
import { progress } from "./progress";
import { startStageTimes, takeStageTimes, type StageTimes } from "./stage-times";

const DATA_ROUTE_PATH = "/api/account/courses";

/** Rounds of a fresh process left out of its figure: the connections to open, the first compilations. */
const FIRST_ROUNDS_LEFT_OUT = 5;
/**
 * Requests each side serves before its steady figure is timed, WARM_UP_CONNECTIONS at a time. V8 runs a
 * fresh process's code in its interpreter and baseline tiers and optimizes what runs often: the data
 * route's own time before and after its call to the site settles after 600 to 800 requests
 * (docs/performance.md, round four). A server in service is past that within its first minute.
 */
const WARM_UP_REQUESTS = 1_000;
const WARM_UP_CONNECTIONS = 10;

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
      body: JSON.stringify({ query: COURSES_DOCUMENT, variables: { first: COURSES_PAGE_SIZE, after: null } }),
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

type Side = keyof Latencies;

/** `rounds` interleaved rounds of every side, one request at a time; the median of each side. */
async function timeRounds(
  sides: Record<Side, () => Promise<Response>>,
  rounds: number,
  leftOut: number,
  label: string,
  countFromHere: () => Promise<void>,
): Promise<Latencies> {
  const times: Record<Side, number[]> = { route: [], direct: [], floor: [], plain: [] };
  const total = rounds + leftOut;
  for (let index = 0; index < total; index += 1) {
    if (index === leftOut) await countFromHere();
    if ((index + 1) % 20 === 0 || index + 1 === total) progress(label, index + 1, total);
    // Alternating which goes first, so drift and ordering effects cancel.
    const pair =
      index % 2 === 0
        ? [await timed(sides.route), await timed(sides.direct)]
        : [await timed(sides.direct), await timed(sides.route)].reverse();
    const floor = await timed(sides.floor);
    const bare = await timed(sides.plain);
    if (index < leftOut) continue;
    times.route.push(pair[0]!);
    times.direct.push(pair[1]!);
    times.floor.push(floor);
    times.plain.push(bare);
  }
  return {
    route: percentile(times.route, 0.5),
    direct: percentile(times.direct, 0.5),
    floor: percentile(times.floor, 0.5),
    plain: percentile(times.plain, 0.5),
  };
}

/** WARM_UP_REQUESTS of every side, WARM_UP_CONNECTIONS at a time, untimed. */
async function warmUp(sides: Record<Side, () => Promise<Response>>): Promise<void> {
  for (const [index, send] of Object.values(sides).entries()) {
    progress(`warm-up, ${WARM_UP_REQUESTS.toLocaleString("en")} requests per side`, index + 1, Object.keys(sides).length, "side");
    let sent = 0;
    await Promise.all(
      Array.from({ length: WARM_UP_CONNECTIONS }, async () => {
        while (sent < WARM_UP_REQUESTS) {
          sent += 1;
          await timed(send);
        }
      }),
    );
  }
}

interface Phase {
  latency: Latencies;
  /** The data route's own time inside the dashboard's process. */
  stages: StageTimes;
}

async function measureLatency(context: BenchContext): Promise<{ fresh: Phase; steady: Phase }> {
  const { appUrlIPv4 } = context.target;
  const direct = directCoursesRequest(context);
  const plainServer = await startPlainServer();
  const sides: Record<Side, () => Promise<Response>> = {
    route: () => fetch(`${appUrlIPv4}${DATA_ROUTE_PATH}`, { headers: { cookie: context.member.header() } }),
    direct: () => fetch(direct.url, direct.init),
    floor: () => fetch(`${appUrlIPv4}/api/health`),
    plain: () => fetch(plainServer.url),
  };
  const inspector = await context.inspector();
  const timePhase = async (leftOut: number, label: string): Promise<Phase> => {
    const countFromHere = () => startStageTimes(inspector, DATA_ROUTE_PATH, new URL(direct.url).pathname);
    const latency = await timeRounds(sides, context.options.rounds, leftOut, label, countFromHere);
    return { latency, stages: await takeStageTimes(inspector) };
  };
  try {
    const fresh = await timePhase(FIRST_ROUNDS_LEFT_OUT, "one request at a time, fresh process");
    await warmUp(sides);
    const steady = await timePhase(0, "one request at a time, after the warm-up");
    return { fresh, steady };
  } finally {
    plainServer.stop();
  }
}

export const sequentialLatency: BenchSection = {
  name: "latency",
  title: "(a) one request at a time: data route vs direct GraphQL",
  enabled: () => true,
  async run(context) {
    const { fresh: freshPhase, steady } = await measureLatency(context);
    const latency = steady.latency;
    const fresh = freshPhase.latency;
    const ratio = round(latency.route / latency.direct, 3);
    const freshRatio = round(fresh.route / fresh.direct, 3);
    const ownTime = ({ stages }: Phase) =>
      `${round(stages.beforeCallMs, 2)} ms before its call to the site, ${round(stages.afterAnswerMs, 2)} ms after the answer`;
    // The data route is answered at the front door (lib/http/front-door.ts), without Next.js's router:
    // what Next.js adds to a request it routes, measured on /api/health, is what the front door saves.
    const nextJsShare = Math.max(0, latency.floor - latency.plain);
    return {
      summary: [
        `(a) data route vs direct GraphQL, median latency after ${WARM_UP_REQUESTS.toLocaleString("en")} requests per side:` +
          ` ${round(latency.route)} ms / ${round(latency.direct)} ms = ${ratio} (target <= 1.10)`,
        `    the data route adds ${round(latency.route - latency.direct, 2)} ms to the direct call, a plain node:http server's` +
          ` round trip is ${round(latency.plain, 2)} ms; a route Next.js serves (/api/health) answers in ${round(latency.floor, 2)} ms:` +
          ` the front door saves the data route Next.js's ${round(nextJsShare, 2)} ms`,
        `    the data route's own time in the dashboard's process (diagnostics channels): ${ownTime(steady)}`,
        `    a fresh process, its first ${context.options.rounds} rounds: ${round(fresh.route)} ms / ${round(fresh.direct)} ms =` +
          ` ${freshRatio}; the data route adds ${round(fresh.route - fresh.direct, 2)} ms, its own time ${ownTime(freshPhase)}` +
          " (V8 has not optimized its code yet)",
      ],
      results: {
        rounds: context.options.rounds,
        warmUpRequestsPerSide: WARM_UP_REQUESTS,
        routeMedianMs: round(latency.route),
        directMedianMs: round(latency.direct),
        ratio,
        target: 1.1,
        frameworkFloorMs: round(latency.floor, 2),
        plainServerMs: round(latency.plain, 2),
        nextJsShareMs: round(nextJsShare, 2),
        ownTimeMs: { beforeCall: round(steady.stages.beforeCallMs, 3), afterAnswer: round(steady.stages.afterAnswerMs, 3) },
        freshProcess: {
          routeMedianMs: round(fresh.route),
          directMedianMs: round(fresh.direct),
          ratio: freshRatio,
          ownTimeMs: { beforeCall: round(freshPhase.stages.beforeCallMs, 3), afterAnswer: round(freshPhase.stages.afterAnswerMs, 3) },
        },
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
