/**
 * Lab section (`npm run bench -- --lab=profile`): CPU profiles of the dashboard while the data route,
 * /api/health, a page view with data (Courses, HTML) and the signed-out page are under load
 * (artifacts/profile-*.cpuprofile), with their top frames by self time.
 */
import type { BenchContext, BenchSection } from "../context";
import { topSelfFrames, topSelfModules, type CpuProfile } from "../dashboard-process";
import { runLoad } from "../load";

const PROFILED: { name: string; path: string; withSession: boolean }[] = [
  { name: "route", path: "/api/account/courses", withSession: true },
  { name: "health", path: "/api/health", withSession: false },
  { name: "courses-html", path: "/courses", withSession: true },
  { name: "signed-out", path: "/signed-out", withSession: false },
];

async function profiled(context: BenchContext, side: (typeof PROFILED)[number]) {
  const inspector = await context.inspector();
  await inspector.startProfile();
  await runLoad({
    url: `${context.target.appUrlIPv4}${side.path}`,
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
    for (const side of PROFILED) {
      const { file, top, modules } = await profiled(context, side);
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
