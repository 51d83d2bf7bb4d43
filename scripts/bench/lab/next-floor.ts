/**
 * Lab section (`npm run bench -- --lab=nextFloor`, issue 26): what Next.js itself costs per page view on
 * this machine, measured in the same interleaved rounds as the dashboard's pages and the direct call.
 * The app in `next-floor-app/` is the smallest one on the dashboard's own Next.js, React and Node: a
 * root layout with a nav and nothing else (no fonts, styles, providers or messages), and ten pages. Four
 * have no proxy or CSP: one prerendered at build time, one rendered per request with one sentence, one
 * rendered per request with 24 courses after waiting as long as the sandbox's answer, and the same courses
 * behind a Suspense boundary (the shell streamed first). `/hashed-static` is the prerendered page behind
 * the proxy with a CSP of hashes instead of a nonce (./hashed-csp.ts): what a signed-out page could cost
 * without being rendered per request; the section checks in Chromium that it hydrates under that policy.
 * Two add, step by step, what a member's page cannot drop: `/csp-list`, the 24 courses behind a nonce
 * CSP set by a proxy (the floor app's proxy.ts), and `/member-list`, behind the same CSP, with one call to
 * the site per view instead of the timer: the bench's own direct call (same operation, same member's
 * token), its courses rendered as plain server markup. Three more render the same courses the way the
 * dashboard must, for a view that filters and pages them in the browser: `/client-list` by a client
 * component with the data as its props, `/query-list` through React Query (prefetched on the server,
 * dehydrated into the page, read from the cache by the client component), the dashboard's pattern
 * (app/_lib/member-page.tsx), and `/initial-data-list` with the courses as the query's initial data
 * instead. `next-floor-ppr-app/` serves the Suspense page
 * built with Cache Components: its shell prerendered at build time, only the courses rendered per request
 * (Partial Prerendering). Both are built and started (`next start`, loopback) by this section and stopped
 * after it.
 *
 * Each side's throughput and p50 are printed as ratios to the direct call's, as the targets are:
 * where Next.js alone, rendering a page per request, falls short of a target, no change inside the
 * dashboard's code can meet it; where Next.js alone meets it, what is missing is the dashboard's own cost.
 * (The CPU per view is the process's, every thread included: the garbage collector's helpers and the
 * compression in libuv's pool run beside the main thread, so 1,000 ms over it is no bound on throughput.)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

import { PAGE_PATHS } from "../../../lib/contract/paths";
import { round, type BenchContext, type BenchSection } from "../context";
import { findNextServer } from "../dashboard-process";
import { dashboardGet, directSide, runInterleaved, sideLine, type Side } from "../interleaved";
import { waitFor } from "../members";
import { directCoursesRequest } from "../sequential";
import { captureBrowserRequests, recordBrowserRequests } from "../page-views";
import { phase } from "../progress";
import { readRouteBundleStats } from "../route-bundle-stats";
import { hashedPagePolicy, type HashedPagePolicy } from "./hashed-csp";

export const FLOOR_APP_DIRECTORY = path.join(import.meta.dirname, "next-floor-app");
const PPR_APP_DIRECTORY = path.join(import.meta.dirname, "next-floor-ppr-app");
const NEXT_BIN = path.join(import.meta.dirname, "..", "..", "..", "node_modules", "next", "dist", "bin", "next");
export const FLOOR_PORT = Number(process.env.BENCH_FLOOR_PORT ?? 3210);

/** What a browser sends for a page (as page-views.ts replays it): HTML, compressed. */
const PAGE_HEADERS = { accept: "text/html,application/xhtml+xml", "accept-encoding": "gzip, deflate, br, zstd" };

async function run(command: string[], cwd: string): Promise<void> {
  const child = spawn(process.execPath, command, { cwd, stdio: ["ignore", "ignore", "inherit"] });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`${command.join(" ")} exited with ${code}`);
}

/** `env`: the server's environment, read once the app is built (it may depend on the build's output). */
export async function startFloorApp(
  directory: string,
  port: number,
  readyPath: string,
  env: (url: string) => Record<string, string> = () => ({}),
): Promise<{ server: ChildProcess; pid: number; url: string }> {
  phase(`building the Next.js floor app (${path.relative(process.cwd(), directory)})`);
  await run([NEXT_BIN, "build"], directory);
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [NEXT_BIN, "start", "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: directory,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, ...env(url), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  await waitFor(`${url}${readyPath}`, 60_000);
  const pid = findNextServer(server.pid!) ?? server.pid!;
  return { server, pid, url };
}

function floorSide(name: string, url: string, serverPid: number, headers: Record<string, string> = PAGE_HEADERS): Side {
  return {
    name,
    share: 1,
    dashboard: true,
    serverPid,
    spec: (context, durationSeconds) => ({ url, connections: context.options.connections, durationSeconds, headers }),
  };
}

export const nextFloor: BenchSection = {
  name: "nextFloor",
  title: "Next.js's own floor for a page view: a minimal app on the same Next.js, beside the dashboard's pages",
  enabled: () => true,
  async run(context: BenchContext) {
    // The member page's call to the site: the direct side's request, as it is (scripts/bench/sequential.ts).
    const direct = directCoursesRequest(context);
    let hashedPolicy: HashedPagePolicy | undefined;
    const floor = await startFloorApp(FLOOR_APP_DIRECTORY, FLOOR_PORT, "/static", (url) => {
      const builtPage = readFileSync(path.join(FLOOR_APP_DIRECTORY, ".next", "server", "app", "hashed-static.html"), "utf8");
      hashedPolicy = hashedPagePolicy(builtPage, url);
      return {
        FLOOR_GRAPHQL_URL: direct.url,
        FLOOR_GRAPHQL_AUTHORIZATION: direct.init.headers.authorization!,
        FLOOR_GRAPHQL_BODY: direct.init.body,
        FLOOR_HASHED_CSP: hashedPolicy.policy,
      };
    });
    const prerenderedShell = await startFloorApp(PPR_APP_DIRECTORY, FLOOR_PORT + 1, "/streamed-list").catch((error: unknown) => {
      floor.server.kill("SIGTERM");
      throw error;
    });
    try {
      // Each member page must really have called the site: a 200 with the member's courses, not an error page.
      for (const memberPath of ["/member-list", "/client-list", "/query-list", "/initial-data-list"]) {
        const memberPage = await fetch(`${floor.url}${memberPath}`);
        if (memberPage.status !== 200 || !(await memberPage.text()).includes("<article"))
          throw new Error(`the floor app's ${memberPath} answered ${memberPage.status} without the member's courses`);
      }
      // The client router's requests when "List", "Member list" and "Query list" are clicked in turn from the
      // prerendered page, as Chromium sends them.
      const {
        clicks: [listClick, memberListClick, queryListClick],
      } = await recordBrowserRequests(`${floor.url}/static`, [
        { link: "List", pathname: "/dynamic-list" },
        { link: "Member list", pathname: "/member-list" },
        { link: "Query list", pathname: "/query-list" },
      ]);
      // The prerendered page under its CSP of hashes must hydrate: its "List" link is a client navigation
      // (an RSC request), not a document one, which recordBrowserRequests waits for.
      await recordBrowserRequests(`${floor.url}/hashed-static`, [{ link: "List", pathname: "/dynamic-list" }]).catch((error: unknown) => {
        throw new Error("the floor app's /hashed-static did not hydrate under its CSP of hashes: its link click sent no RSC request", {
          cause: error,
        });
      });
      const dashboardClick = (await captureBrowserRequests(context)).rscCourses;
      const sides: Side[] = [
        directSide,
        floorSide("floorStatic", `${floor.url}/static`, floor.pid),
        floorSide("floorHashedStatic", `${floor.url}/hashed-static`, floor.pid),
        floorSide("floorDynamic", `${floor.url}/dynamic`, floor.pid),
        floorSide("floorDynamicList", `${floor.url}/dynamic-list`, floor.pid),
        floorSide("floorListRsc", `${floor.url}${listClick!.path}`, floor.pid, listClick!.headers),
        floorSide("floorStreamedList", `${floor.url}/streamed-list`, floor.pid),
        floorSide("floorPrerenderedShell", `${prerenderedShell.url}/streamed-list`, prerenderedShell.pid),
        floorSide("floorCspList", `${floor.url}/csp-list`, floor.pid),
        floorSide("floorMemberList", `${floor.url}/member-list`, floor.pid),
        floorSide("floorMemberListRsc", `${floor.url}${memberListClick!.path}`, floor.pid, memberListClick!.headers),
        floorSide("floorClientList", `${floor.url}/client-list`, floor.pid),
        floorSide("floorQueryList", `${floor.url}/query-list`, floor.pid),
        floorSide("floorInitialDataList", `${floor.url}/initial-data-list`, floor.pid),
        floorSide("floorQueryListRsc", `${floor.url}${queryListClick!.path}`, floor.pid, queryListClick!.headers),
        { name: "signedOut", share: 1, dashboard: true, spec: dashboardGet(PAGE_PATHS.signedOut, false, PAGE_HEADERS) },
        { name: "coursesHtml", share: 1, dashboard: true, spec: dashboardGet(PAGE_PATHS.courses, true, PAGE_HEADERS) },
        { name: "coursesRsc", share: 1, dashboard: true, spec: dashboardGet(dashboardClick.path, true, dashboardClick.headers) },
      ];
      const { bySide, rounds, secondsPerSide } = await runInterleaved(
        context,
        sides,
        context.options.concurrentSeconds,
        context.options.pageWarmUpRequests,
      );
      const direct = bySide.direct!;
      const floorBundles = readRouteBundleStats(FLOOR_APP_DIRECTORY);
      const labels: Record<string, string> = {
        floorStatic: "floor app, prerendered page",
        floorHashedStatic: "floor app, same, proxy and CSP of hashes",
        floorDynamic: "floor app, page rendered per request",
        floorDynamicList: "floor app, 24 courses after 20 ms",
        floorListRsc: "floor app, same, a link click's RSC request",
        floorStreamedList: "floor app, same, shell streamed first",
        floorPrerenderedShell: "floor app, same, shell prerendered (PPR)",
        floorCspList: "floor app, 24 courses behind a nonce CSP",
        floorMemberList: "floor app, nonce CSP and one site call",
        floorMemberListRsc: "floor app, same, a link click's RSC request",
        floorClientList: "floor app, same, courses in a client component",
        floorQueryList: "floor app, same, through React Query",
        floorInitialDataList: "floor app, same, as the query's initial data",
        floorQueryListRsc: "floor app, the React Query page's RSC request",
        signedOut: "dashboard, GET /signed-out",
        coursesHtml: "dashboard, GET /courses (signed in)",
        coursesRsc: "dashboard, tab click to /courses (RSC)",
      };
      const summary = [
        `Next.js's floor at ${context.options.connections} connections, ${secondsPerSide} s per side in ${rounds} interleaved rounds` +
          ` (throughput and p50 as ratios to the direct call's):`,
        ...Object.entries(labels).map(([name, label]) => {
          const side = bySide[name]!;
          return (
            `    ${label.padEnd(48)} throughput ${round(side.requestsPerSecond / direct.requestsPerSecond, 3)} ×,` +
            ` p50 ${round(side.p50Ms / direct.p50Ms, 3)} ×, ${side.cpuMsPerRequest} CPU ms/view`
          );
        }),
        sideLine("same operation straight to the site", direct),
        ...Object.entries(labels).map(([name, label]) => sideLine(label, bySide[name]!)),
        `the CSP of hashes: ${hashedPolicy!.inlineScripts} distinct inline scripts by hash, the build's chunks by their folder`,
        // Beside the dashboard's (the lighthouse section): what Next.js and React alone ship to a first load.
        `floor app's first-load JavaScript per route, gzip: ` +
          floorBundles.routes.map((route) => `${route.route} ${round(route.firstLoadGzipBytes / 1024)} KB`).join(", "),
      ];
      return {
        summary,
        results: { rounds, secondsPerSide, bySide, floorFirstLoadJavaScript: floorBundles, hashedPagePolicy: hashedPolicy },
      };
    } finally {
      floor.server.kill("SIGTERM");
      prerenderedShell.server.kill("SIGTERM");
    }
  },
};
