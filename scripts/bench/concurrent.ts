/**
 * Under load (docs/architecture.md section 9; README, Speed): autocannon at N connections, the data
 * route (through Next.js's router, as every route) and the same GraphQL operation sent straight to the
 * site, in short alternating rounds so that the other work on a shared machine weighs on both sides
 * alike. The restated goals: the data route's throughput at least 0.85 of the direct call's and its p50
 * at most 1.20 times; the dashboard's own CPU per data request, beyond what GET /api/health (a route that
 * does nothing, same rounds) costs, at most 0.5 ms. The dashboard process's CPU time is read from /proc
 * around each of its rounds; it is far less sensitive to machine load than latency.
 */
import { cpuTimeMs, runQueueWaitMs } from "./dashboard-process";
import { round, type BenchContext, type BenchSection } from "./context";
import { percentile, pool, runLoad, throughput, type LoadSample, type LoadSpec } from "./load";
import { progress } from "./progress";
import { directCoursesRequest } from "./sequential";

const ROUND_SECONDS = 5;

interface Side {
  name: string;
  /** Share of the round length this side runs (the floors need less time to be measured well). */
  share: number;
  /** True when the load lands on the dashboard process, so its CPU time per request is meaningful. */
  dashboard: boolean;
  spec(context: BenchContext, durationSeconds: number): LoadSpec;
}

function dashboardGet(path: string, withSession: boolean): Side["spec"] {
  return (context, durationSeconds) => ({
    url: `${context.target.appUrlIPv4}${path}`,
    connections: context.options.connections,
    durationSeconds,
    sessions: withSession ? [context.member] : undefined,
  });
}

const SIDES: Side[] = [
  { name: "route", share: 1, dashboard: true, spec: dashboardGet("/api/account/courses", true) },
  {
    name: "direct",
    share: 1,
    dashboard: false,
    spec: (context, durationSeconds) => {
      const direct = directCoursesRequest(context);
      return {
        url: direct.url,
        connections: context.options.connections,
        durationSeconds,
        method: "POST",
        headers: direct.init.headers,
        body: direct.init.body,
      };
    },
  },
  { name: "health", share: 0.5, dashboard: true, spec: dashboardGet("/api/health", false) },
];

interface SideFigures {
  requests: number;
  failures: number;
  p50Ms: number;
  p95Ms: number;
  requestsPerSecond: number;
  /** The dashboard process's CPU time per request (sides served by the dashboard). */
  cpuMsPerRequest?: number;
  /** Share of the time the dashboard's main thread was ready to run but waited for a CPU (the machine's other load), in %. */
  waitingForCpuPercent?: number;
  /** The site's (sandbox's) CPU time per request, and the load generator's (this process). */
  siteCpuMsPerRequest: number;
  loadGeneratorCpuMsPerRequest: number;
}

interface CpuSpent {
  dashboard: number;
  dashboardWaiting: number;
  site: number;
  loadGenerator: number;
}

function figures(sample: LoadSample, cpu: CpuSpent, dashboard: boolean): SideFigures {
  const answered = sample.latenciesMs.length;
  const perRequest = (ms: number) => round(ms / Math.max(1, answered + sample.failures), 2);
  return {
    requests: answered,
    failures: sample.failures,
    p50Ms: round(percentile(sample.latenciesMs, 0.5)),
    p95Ms: round(percentile(sample.latenciesMs, 0.95)),
    requestsPerSecond: round(throughput(sample)),
    ...(dashboard
      ? { cpuMsPerRequest: perRequest(cpu.dashboard), waitingForCpuPercent: round((cpu.dashboardWaiting / sample.durationMs) * 100) }
      : {}),
    siteCpuMsPerRequest: perRequest(cpu.site),
    loadGeneratorCpuMsPerRequest: perRequest(cpu.loadGenerator),
  };
}

/** The restated goals under load. */
export const LOAD_TARGETS = { throughputRatio: 0.85, p50Ratio: 1.2, ownCpuMsPerRequest: 0.5 };

export const concurrentLoad: BenchSection = {
  name: "concurrent",
  title: "under load: data route vs direct GraphQL, with Next.js's floor",
  enabled: () => true,
  async run(context) {
    const rounds = Math.max(1, Math.round(context.options.concurrentSeconds / ROUND_SECONDS));
    const seconds = context.options.concurrentSeconds / rounds;
    const samples = new Map<string, LoadSample[]>(SIDES.map((side) => [side.name, []]));
    const cpu = new Map<string, CpuSpent>(
      SIDES.map((side) => [side.name, { dashboard: 0, dashboardWaiting: 0, site: 0, loadGenerator: 0 }]),
    );
    const spentSoFar = (): CpuSpent => {
      const own = process.cpuUsage();
      return {
        dashboard: cpuTimeMs(context.serverPid),
        dashboardWaiting: runQueueWaitMs(context.serverPid),
        site: cpuTimeMs(context.sitePid),
        loadGenerator: (own.user + own.system) / 1000,
      };
    };
    // A short warm-up of every side: JIT, connection pools, caches.
    for (const side of SIDES) await runLoad(side.spec(context, 1));
    for (let index = 0; index < rounds; index += 1) {
      progress(`${context.options.connections} connections, ${round(seconds)} s per side`, index + 1, rounds);
      const order = index % 2 === 0 ? SIDES : [...SIDES].reverse();
      for (const side of order) {
        const before = spentSoFar();
        samples.get(side.name)!.push(await runLoad(side.spec(context, Math.max(1, Math.round(seconds * side.share)))));
        const after = spentSoFar();
        const total = cpu.get(side.name)!;
        for (const key of ["dashboard", "dashboardWaiting", "site", "loadGenerator"] as const) total[key] += after[key] - before[key];
      }
    }
    const bySide = Object.fromEntries(
      SIDES.map((side) => [side.name, figures(pool(samples.get(side.name)!), cpu.get(side.name)!, side.dashboard)]),
    );
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
    const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
    const line = (name: string, side: SideFigures) => {
      const dashboardCpu =
        side.cpuMsPerRequest === undefined
          ? ""
          : `dashboard ${side.cpuMsPerRequest} (waiting for a CPU ${side.waitingForCpuPercent} % of the time), `;
      return (
        `    ${name.padEnd(38)} p50 ${side.p50Ms} ms, p95 ${side.p95Ms} ms, ${side.requestsPerSecond} req/s; ` +
        `CPU ms/request: ${dashboardCpu}site ${side.siteCpuMsPerRequest}, load generator ${side.loadGeneratorCpuMsPerRequest}` +
        (side.failures ? `; ${side.failures} failed` : "")
      );
    };
    const summary = [
      `at ${context.options.connections} connections, ${round(seconds * rounds)} s per side in ${rounds} interleaved rounds:`,
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
      secondsPerSide: round(seconds * rounds),
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
