/**
 * What a student sees on a phone (issue 26; README, Speed): Lighthouse's performance audit of each
 * signed-in page, on Debian's Chromium, with Lighthouse's default profile (mobile, simulated throttling:
 * a slow 4G network and a CPU four times slower than this one), the member's session sent as a Cookie
 * header with every request, `--lighthouse-runs` times per page (default 3; the median of each figure
 * is printed): the performance score, LCP, TBT and CLS. Beside it, each route's
 * first-load JavaScript, gzip, from the build (route-bundle-stats.ts). Lighthouse's own timings scale
 * with the machine's load (its simulation starts from the main thread's tasks as measured), so on a
 * shared machine TBT reads high.
 */
import { launch } from "chrome-launcher";
import type { RunnerResult } from "lighthouse";

import { PAGE_PATHS } from "../../lib/contract/paths";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../tests/support/chromium";
import { round, type BenchSection } from "./context";
import { verdict } from "./interleaved";
import { progress } from "./progress";
import { readRouteBundleStats, type RouteFirstLoad } from "./route-bundle-stats";
import { scriptsCountedForLcp, type TraceEventLike } from "./scripts-before-paint";

/** A run Lighthouse itself could not complete (its report's `runtimeError`), as opposed to a page that failed. */
class LighthouseRuntimeError extends Error {}

export const PHONE_TARGETS = { lcpMs: 2000, tbtMs: 150, cls: 0, firstLoadJavaScriptGzipKb: 180 };

const SIGNED_IN_PAGES = [PAGE_PATHS.overview, PAGE_PATHS.courses, PAGE_PATHS.orders, PAGE_PATHS.events, PAGE_PATHS.settings];

export interface PageAudit {
  score: number;
  lcpMs: number;
  /** Each run's LCP, in run order: Lantern's estimate moves with the requests that ended before the observed first paint. */
  lcpMsPerRun?: number[];
  /** The bytes (as transferred) of the scripts the LCP estimate counts: downloaded before the first paint, not seen to run after it. */
  scriptBytesBeforePaint?: number;
  /** The same, each run's, in run order. */
  scriptBytesBeforePaintPerRun?: number[];
  tbtMs: number;
  cls: number;
  /** The URL Lighthouse ended on: a redirect to sign-in would mean the session did not reach the page. */
  finalUrl: string;
}

/** The transfer size of the scripts the LCP estimate counted (see scripts-before-paint.ts). */
function scriptBytesBeforePaint(lhr: RunnerResult["lhr"], traceEvents: readonly TraceEventLike[]): number {
  type ObservedTimes = { observedTimeOriginTs?: number; observedLargestContentfulPaintTs?: number };
  const observed = (lhr.audits.metrics?.details as { items?: ObservedTimes[] } | undefined)?.items?.[0];
  if (observed?.observedTimeOriginTs === undefined || observed.observedLargestContentfulPaintTs === undefined) return Number.NaN;
  type Request = { url: string; resourceType?: string; transferSize?: number; networkEndTime?: number };
  const requests = (lhr.audits["network-requests"]?.details as { items?: Request[] } | undefined)?.items ?? [];
  const scripts = requests.filter((request) => request.resourceType === "Script" && request.networkEndTime !== undefined);
  const transferSizes = new Map(scripts.map((request) => [request.url, request.transferSize ?? 0]));
  return scriptsCountedForLcp(
    traceEvents,
    scripts.map((request) => ({ url: request.url, networkEndMs: request.networkEndTime! })),
    observed.observedTimeOriginTs,
    observed.observedLargestContentfulPaintTs,
  ).reduce((sum, url) => sum + (transferSizes.get(url) ?? 0), 0);
}

/** Lighthouse on Debian's Chromium, kept open for several audits (this section's, and the lab's `floorPhone`). */
export interface PhoneAuditor {
  /** `runs` audits of `url` (a run Lighthouse could not record is run again, at most twice): medians, each run's LCP and script bytes. */
  audit(url: string, runs: number, options: AuditOptions): Promise<PageAudit>;
  /** The Lighthouse version of the last audit. */
  readonly version: string;
  close(): void;
}

/** What an audit sends with each request, and the artifact its report is written to. */
interface AuditOptions {
  headers?: Record<string, string>;
  artifact: string;
}

/** `writeArtifact` keeps each run's whole report (the bench's `context.writeArtifact`). */
export async function openPhoneAuditor(writeArtifact: (name: string, content: string) => string): Promise<PhoneAuditor> {
  const chrome = await launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [...CHROMIUM_ARGS, "--headless=new"],
    logLevel: "silent",
  });
  // Loaded only when an audit runs: Lighthouse is large.
  const { default: lighthouse } = await import("lighthouse");
  let version = "";

  async function auditOnce(url: string, { headers, artifact }: AuditOptions): Promise<PageAudit> {
    const result = await lighthouse(url, {
      port: chrome.port,
      logLevel: "error",
      output: "json",
      onlyCategories: ["performance"],
      ...(headers ? { extraHeaders: headers } : {}),
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    // The whole report (the LCP element and its phases, the long tasks), for whoever looks into a figure.
    writeArtifact(artifact, JSON.stringify(lhr));
    version = lhr.lighthouseVersion;
    if (lhr.runtimeError) throw new LighthouseRuntimeError(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const audit: PageAudit = {
      score: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
      lcpMs: Math.round(numeric("largest-contentful-paint")),
      tbtMs: Math.round(numeric("total-blocking-time")),
      cls: round(numeric("cumulative-layout-shift"), 3),
      scriptBytesBeforePaint: scriptBytesBeforePaint(lhr, result.artifacts.Trace.traceEvents),
      finalUrl: lhr.finalDisplayedUrl,
    };
    if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname)
      throw new Error(`Lighthouse on ${url} ended on ${lhr.finalDisplayedUrl}: the session did not reach the page`);
    return audit;
  }

  // Lighthouse sometimes fails to record a load's trace (NO_NAVSTART, "please run Lighthouse again"):
  // such a run is run again, at most twice, and said so; a page that fails three times fails the section.
  async function auditWithRetries(url: string, options: AuditOptions) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await auditOnce(url, options);
      } catch (error) {
        if (!(error instanceof LighthouseRuntimeError) || attempt === 3) throw error;
        progress(`Lighthouse, ${url}: ${error.message}; again`, attempt + 1, 3, "attempt");
      }
    }
  }

  return {
    async audit(url, runs, options) {
      const perRun: PageAudit[] = [];
      for (let run = 0; run < Math.max(1, runs); run += 1) perRun.push(await auditWithRetries(url, options));
      const median = (pick: (audit: PageAudit) => number) => {
        const sorted = perRun.map(pick).sort((a, b) => a - b);
        return sorted[Math.floor(sorted.length / 2)]!;
      };
      return {
        score: median((audit) => audit.score),
        lcpMs: median((audit) => audit.lcpMs),
        tbtMs: median((audit) => audit.tbtMs),
        cls: median((audit) => audit.cls),
        lcpMsPerRun: perRun.map((audit) => audit.lcpMs),
        scriptBytesBeforePaintPerRun: perRun.map((audit) => audit.scriptBytesBeforePaint ?? Number.NaN),
        finalUrl: perRun[0]!.finalUrl,
      };
    },
    get version() {
      return version;
    },
    close: () => chrome.kill(),
  };
}

/** One page's line: medians, and each run's LCP with the scripts its estimate counted. */
export function auditLine(label: string, audit: PageAudit): string {
  return (
    `    ${label.padEnd(13)} score ${audit.score}, LCP ${round(audit.lcpMs / 1000, 2)} s,` +
    ` TBT ${audit.tbtMs} ms, CLS ${audit.cls}` +
    " (LCP of each run, with the scripts its estimate counted, downloaded before the first paint: " +
    (audit.lcpMsPerRun ?? [])
      .map((lcpMs, run) => `${round(lcpMs / 1000, 2)} s [${round((audit.scriptBytesBeforePaintPerRun?.[run] ?? Number.NaN) / 1024)} KB]`)
      .join(", ") +
    ")"
  );
}

export const phoneAudit: BenchSection = {
  name: "lighthouse",
  title: "Lighthouse on each signed-in page (mobile profile, default throttling) and first-load JavaScript per route",
  enabled: () => true,
  async run(context) {
    const auditor = await openPhoneAuditor((name, content) => context.writeArtifact(name, content));
    const audits: Record<string, PageAudit> = {};
    try {
      for (const [index, pathname] of SIGNED_IN_PAGES.entries()) {
        progress(`Lighthouse, ${pathname}, ${context.options.lighthouseRuns} run(s)`, index + 1, SIGNED_IN_PAGES.length, "page");
        audits[pathname] = await auditor.audit(`${context.target.appUrl}${pathname}`, context.options.lighthouseRuns, {
          headers: { Cookie: context.member.header() },
          artifact: `lighthouse${pathname === "/" ? "-overview" : pathname.replaceAll("/", "-")}.json`,
        });
      }
    } finally {
      auditor.close();
    }
    const bundles = readRouteBundleStats();
    const T = PHONE_TARGETS;
    const met = {
      lcp: Object.values(audits).every((audit) => audit.lcpMs <= T.lcpMs),
      tbt: Object.values(audits).every((audit) => audit.tbtMs <= T.tbtMs),
      cls: Object.values(audits).every((audit) => audit.cls <= T.cls),
      firstLoadJavaScript: bundles.routes.every(
        (route) => route.firstLoadGzipBytes - route.notFoundOnlyGzipBytes <= T.firstLoadJavaScriptGzipKb * 1024,
      ),
    };
    const summary = [
      `on a phone (Lighthouse ${auditor.version}, mobile, default throttling;` +
        ` targets LCP <= ${T.lcpMs / 1000} s, TBT <= ${T.tbtMs} ms, CLS ${T.cls}):`,
      ...Object.entries(audits).map(([pathname, audit]) => auditLine(pathname, audit)),
      `    LCP ${verdict(met.lcp)}, TBT ${verdict(met.tbt)}, CLS ${verdict(met.cls)} on every page`,
      `first-load JavaScript per route, gzip (${bundles.source};` +
        ` target <= ${T.firstLoadJavaScriptGzipKb} KB: ${verdict(met.firstLoadJavaScript)}):`,
      ...bundles.routes.map((route) => `    ${route.route.padEnd(20)} ${firstLoadLine(route)}`),
    ];
    return { summary, results: { pages: audits, firstLoadJavaScript: bundles, target: PHONE_TARGETS, met } };
  },
};

/** A route's first load; when Next.js also lists chunks only its 404 page loads, the figure without them first. */
function firstLoadLine(route: RouteFirstLoad): string {
  const listed = `${round(route.firstLoadGzipBytes / 1024)} KB`;
  if (route.notFoundOnlyGzipBytes === 0) return listed;
  const own = round((route.firstLoadGzipBytes - route.notFoundOnlyGzipBytes) / 1024);
  return `${own} KB (${listed} as Next.js lists it, with app/global-not-found's chunks, which only a path no page has loads)`;
}
