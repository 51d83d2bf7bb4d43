/**
 * Interleaved load rounds (docs/architecture.md section 9): several sides, each an autocannon run at N
 * connections, in short rounds that alternate their order, so that the other work on a shared machine
 * weighs on every side alike; latencies pooled per side (p50, p95), throughput in answers per second,
 * bytes per answer, and the CPU time of the dashboard, the site and this process read around each round
 * (from /proc: far less sensitive to machine load than latency). Used by concurrent.ts (data route) and
 * page-views.ts (pages and their RSC requests).
 */
import { cpuTimeMs, runQueueWaitMs } from "./dashboard-process";
import { round, type BenchContext } from "./context";
import { percentile, pool, runLoad, throughput, type LoadSample, type LoadSpec } from "./load";
import { progress } from "./progress";
import { directCoursesRequest } from "./sequential";

export const ROUND_SECONDS = 5;

export interface Side {
  name: string;
  /** Share of the round length this side runs (the floors need less time to be measured well). */
  share: number;
  /** True when the load lands on the dashboard process, so its CPU time per request is meaningful. */
  dashboard: boolean;
  /** The process whose CPU time is counted as the "dashboard" figures, when not the dashboard (the lab's Next.js floor app). */
  serverPid?: number;
  spec(context: BenchContext, durationSeconds: number): LoadSpec;
}

export interface SideFigures {
  requests: number;
  failures: number;
  p50Ms: number;
  p95Ms: number;
  requestsPerSecond: number;
  /** Mean bytes of an answer as it came over the wire (status line, headers and body). */
  bytesPerAnswer: number;
  /** The dashboard process's CPU time per request (sides served by the dashboard). */
  cpuMsPerRequest?: number;
  /** Share of the time the dashboard's main thread was ready to run but waited for a CPU (the machine's other load), in %. */
  waitingForCpuPercent?: number;
  /** How long the dashboard's main thread stood still for garbage collection per request (with `gcPauses`). */
  gcPauseMsPerRequest?: number;
  /** The site's (sandbox's) CPU time per request, and the load generator's (this process). */
  siteCpuMsPerRequest: number;
  loadGeneratorCpuMsPerRequest: number;
}

interface CpuSpent {
  dashboard: number;
  dashboardWaiting: number;
  site: number;
  loadGenerator: number;
  gcPause: number;
}

/** A GET of the dashboard over IPv4 loopback, with the member's session or without one. */
export function dashboardGet(path: string, withSession: boolean, headers?: Record<string, string>): Side["spec"] {
  return (context, durationSeconds) => ({
    url: `${context.target.appUrlIPv4}${path}`,
    connections: context.options.connections,
    durationSeconds,
    headers,
    sessions: withSession ? [context.member] : undefined,
  });
}

/** The anchor of every ratio: the Courses GraphQL operation sent straight to the site with the same member's token. */
export const directSide: Side = {
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
};

/** `gcPaused`: the dashboard's garbage-collection pauses were read around this side's rounds. */
function figures(sample: LoadSample, cpu: CpuSpent, dashboard: boolean, gcPaused: boolean): SideFigures {
  const answered = sample.latenciesMs.length;
  const perRequest = (ms: number) => round(ms / Math.max(1, answered + sample.failures), 2);
  return {
    requests: answered,
    failures: sample.failures,
    p50Ms: round(percentile(sample.latenciesMs, 0.5)),
    p95Ms: round(percentile(sample.latenciesMs, 0.95)),
    requestsPerSecond: round(throughput(sample)),
    bytesPerAnswer: Math.round(sample.bytes / Math.max(1, answered + sample.failures)),
    ...(dashboard
      ? { cpuMsPerRequest: perRequest(cpu.dashboard), waitingForCpuPercent: round((cpu.dashboardWaiting / sample.durationMs) * 100) }
      : {}),
    ...(dashboard && gcPaused ? { gcPauseMsPerRequest: round(cpu.gcPause / Math.max(1, answered + sample.failures), 3) } : {}),
    siteCpuMsPerRequest: perRequest(cpu.site),
    loadGeneratorCpuMsPerRequest: perRequest(cpu.loadGenerator),
  };
}

/**
 * Runs `sides` for `totalSeconds` each (times its share), in rounds of about ROUND_SECONDS whose order
 * alternates, after a warm-up of every side (JIT, connection pools, caches): one second, or, with
 * `warmUpRequests`, that many requests to each side the dashboard serves (V8 optimizes a fresh process's
 * code over its first several hundred requests: a page view's render is far more code than a data route's).
 * With `gcPauses` (the dashboard's garbage-collection pause so far, Inspector.observeGcPauses's `read`), each
 * side the dashboard serves also gets its pause per request.
 */
export async function runInterleaved(
  context: BenchContext,
  sides: readonly Side[],
  totalSeconds: number,
  warmUpRequests?: number,
  gcPauses?: () => Promise<number>,
): Promise<{ bySide: Record<string, SideFigures>; rounds: number; secondsPerSide: number }> {
  const rounds = Math.max(1, Math.round(totalSeconds / ROUND_SECONDS));
  const seconds = totalSeconds / rounds;
  const samples = new Map<string, LoadSample[]>(sides.map((side) => [side.name, []]));
  const cpu = new Map<string, CpuSpent>(
    sides.map((side) => [side.name, { dashboard: 0, dashboardWaiting: 0, site: 0, loadGenerator: 0, gcPause: 0 }]),
  );
  // The pauses are the dashboard's process's: only sides that process serves get them.
  const readsGcPauses = (side: Side) => gcPauses !== undefined && (side.serverPid ?? context.serverPid) === context.serverPid;
  const spentSoFar = async (side: Side): Promise<CpuSpent> => {
    const serverPid = side.serverPid ?? context.serverPid;
    const own = process.cpuUsage();
    return {
      dashboard: cpuTimeMs(serverPid),
      dashboardWaiting: runQueueWaitMs(serverPid),
      site: cpuTimeMs(context.sitePid),
      loadGenerator: (own.user + own.system) / 1000,
      gcPause: gcPauses && readsGcPauses(side) ? await gcPauses() : 0,
    };
  };
  for (const [index, side] of sides.entries()) {
    const amount = side.dashboard ? warmUpRequests : undefined;
    if (amount) progress(`warming up ${side.name} with ${amount} requests`, index + 1, sides.length, "side");
    await runLoad({ ...side.spec(context, amount ? 600 : 1), amount });
  }
  for (let index = 0; index < rounds; index += 1) {
    progress(`${context.options.connections} connections, ${round(seconds)} s per side`, index + 1, rounds);
    const order = index % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const before = await spentSoFar(side);
      samples.get(side.name)!.push(await runLoad(side.spec(context, Math.max(1, Math.round(seconds * side.share)))));
      const after = await spentSoFar(side);
      const total = cpu.get(side.name)!;
      for (const key of ["dashboard", "dashboardWaiting", "site", "loadGenerator", "gcPause"] as const)
        total[key] += after[key] - before[key];
    }
  }
  const bySide = Object.fromEntries(
    sides.map((side) => [side.name, figures(pool(samples.get(side.name)!), cpu.get(side.name)!, side.dashboard, readsGcPauses(side))]),
  );
  return { bySide, rounds, secondsPerSide: round(seconds * rounds) };
}

/** One side's line for the terminal. */
export function sideLine(name: string, side: SideFigures): string {
  const dashboardCpu =
    side.cpuMsPerRequest === undefined
      ? ""
      : `dashboard ${side.cpuMsPerRequest} (waiting for a CPU ${side.waitingForCpuPercent} % of the time` +
        (side.gcPauseMsPerRequest === undefined ? "" : `, paused for garbage collection ${side.gcPauseMsPerRequest} ms/request`) +
        `), `;
  return (
    `    ${name.padEnd(38)} p50 ${side.p50Ms} ms, p95 ${side.p95Ms} ms, ${side.requestsPerSecond} req/s, ` +
    `${side.bytesPerAnswer} B/answer; ` +
    `CPU ms/request: ${dashboardCpu}site ${side.siteCpuMsPerRequest}, load generator ${side.loadGeneratorCpuMsPerRequest}` +
    (side.failures ? `; ${side.failures} failed` : "")
  );
}

export const verdict = (ok: boolean): string => (ok ? "met" : "NOT met");
