/**
 * Lab sections of the bench (`npm run bench -- --lab=javascript,site-requests`), not loaded by default:
 *  (b) JavaScript shipped to the Overview page (gzip) divided by that of an empty page of the same app
 *      (the 404 page: the root layout and nothing else);
 *  (c) requests to the site per page view in a real browser.
 */
import { gzipSync } from "node:zlib";

import { chromium } from "@playwright/test";

import { postSandboxControl } from "../../../sandbox/testing";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../../tests/support/chromium";
import { round, type BenchSection } from "../context";
import { Cookies } from "../members";
import { progress } from "../progress";

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
