/**
 * Lab section (`npm run bench -- --lab=profile`): CPU profiles of the dashboard while the data route,
 * /api/health, a page view with data (Courses, HTML), a tab click's RSC request to Courses and the
 * signed-out page are under load (artifacts/profile-*.cpuprofile), with their top frames by self time.
 * The page requests carry the headers Chromium sent (recorded as the page-view section records them).
 */
import type { BenchContext, BenchSection } from "../context";
import { topSelfFrames, topSelfModules, type CpuProfile } from "../dashboard-process";
import { runLoad } from "../load";
import { captureBrowserRequests, type BrowserRequest, type CapturedRequests } from "../page-views";

interface ProfiledSide {
  name: string;
  withSession: boolean;
  request: (captured: CapturedRequests) => BrowserRequest;
}

const PROFILED: ProfiledSide[] = [
  { name: "route", withSession: true, request: () => ({ path: "/api/account/courses", headers: {} }) },
  { name: "health", withSession: false, request: () => ({ path: "/api/health", headers: {} }) },
  { name: "courses-html", withSession: true, request: ({ document }) => ({ path: "/courses", headers: document.headers }) },
  { name: "courses-rsc", withSession: true, request: ({ rscCourses }) => rscCourses },
  { name: "signed-out", withSession: false, request: ({ document }) => ({ path: "/signed-out", headers: document.headers }) },
];

async function profiled(context: BenchContext, side: ProfiledSide, captured: CapturedRequests) {
  const { path, headers } = side.request(captured);
  const inspector = await context.inspector();
  await inspector.startProfile();
  await runLoad({
    url: `${context.target.appUrlIPv4}${path}`,
    headers,
    connections: context.options.connections,
    durationSeconds: Math.max(2, Math.round(context.options.concurrentSeconds / 4)),
    sessions: side.withSession ? [context.member] : undefined,
  });
  const profile: CpuProfile = await inspector.stopProfile();
  return {
    file: context.writeArtifact(`profile-${side.name}.cpuprofile`, JSON.stringify(profile)),
    top: topSelfFrames(profile, 15),
    modules: topSelfModules(profile, 10),
  };
}

export const cpuProfiles: BenchSection = {
  name: "profile",
  title: "CPU profiles of the dashboard under load",
  enabled: () => true,
  async run(context) {
    const summary: string[] = [];
    const results: Record<string, unknown> = {};
    const captured = await captureBrowserRequests(context);
    for (const side of PROFILED) {
      const { file, top, modules } = await profiled(context, side, captured);
      results[side.name] = { file, top, modules };
      summary.push(
        `profile of ${side.name} (${file}), top frames by self time:`,
        ...top.map(({ frame, selfPercent }) => `  ${String(selfPercent).padStart(5)} %  ${frame}`),
        `  by module:`,
        ...modules.map(({ frame, selfPercent }) => `  ${String(selfPercent).padStart(5)} %  ${frame}`),
      );
    }
    return { summary, results };
  },
};
