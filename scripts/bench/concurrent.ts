/**
 * Under load (docs/architecture.md section 9; README, Speed): autocannon at N connections, the data
 * route (through Next.js's router, as every route) and the same GraphQL operation sent straight to the
 * site, in short alternating rounds so that the other work on a shared machine weighs on both sides
 * alike. The restated goals: the data route's throughput at least 0.85 of the direct call's and its p50
 * at most 1.20 times; the dashboard's own CPU per data request, beyond what GET /api/health (a route that
 * does nothing, same rounds) costs, at most 0.5 ms. The dashboard process's CPU time is read from /proc
 * around each of its rounds; it is far less sensitive to machine load than latency.
 */
import { round, type BenchSection } from "./context";
import { dashboardGet, directSide, runInterleaved, sideLine as line, verdict, type Side } from "./interleaved";

const SIDES: Side[] = [
  { name: "route", share: 1, dashboard: true, spec: dashboardGet("/api/account/courses", true) },
  directSide,
  { name: "health", share: 0.5, dashboard: true, spec: dashboardGet("/api/health", false) },
];

/** The restated goals under load. */
export const LOAD_TARGETS = { throughputRatio: 0.85, p50Ratio: 1.2, ownCpuMsPerRequest: 0.5 };

export const concurrentLoad: BenchSection = {
  name: "concurrent",
  title: "under load: data route vs direct GraphQL, with Next.js's floor",
  enabled: () => true,
  async run(context) {
    const { bySide, rounds, secondsPerSide } = await runInterleaved(context, SIDES, context.options.concurrentSeconds);
    const route = bySide.route!;
    const direct = bySide.direct!;
    const health = bySide.health!;
    const ratios = {
      p50: round(route.p50Ms / direct.p50Ms, 3),
      p95: round(route.p95Ms / direct.p95Ms, 3),
      throughput: round(route.requestsPerSecond / direct.requestsPerSecond, 3),
    };
    const ownCpu = round((route.cpuMsPerRequest ?? 0) - (health.cpuMsPerRequest ?? 0), 3);
    const met = {
      throughput: ratios.throughput >= LOAD_TARGETS.throughputRatio,
      p50: ratios.p50 <= LOAD_TARGETS.p50Ratio,
      ownCpu: ownCpu <= LOAD_TARGETS.ownCpuMsPerRequest,
    };
    const summary = [
      `at ${context.options.connections} connections, ${secondsPerSide} s per side in ${rounds} interleaved rounds:`,
      `    throughput ratio ${ratios.throughput} (target >= ${LOAD_TARGETS.throughputRatio}: ${verdict(met.throughput)}),` +
        ` p50 ratio ${ratios.p50} (target <= ${LOAD_TARGETS.p50Ratio}: ${verdict(met.p50)}), p95 ratio ${ratios.p95}`,
      `    the dashboard's own CPU per data request beyond /api/health's: ${ownCpu} ms` +
        ` (target <= ${LOAD_TARGETS.ownCpuMsPerRequest} ms: ${verdict(met.ownCpu)})`,
      line("GET /api/account/courses", route),
      line("same operation straight to the site", direct),
      line("GET /api/health (Next.js's floor)", health),
    ];
    const results: Record<string, unknown> = {
      connections: context.options.connections,
      secondsPerSide,
      rounds,
      ...bySide,
      ratios,
      ownCpuMsPerRequest: ownCpu,
      target: LOAD_TARGETS,
      met,
    };
    return { summary, results };
  },
};
