/**
 * Which scripts a load's LCP estimate counted. Lighthouse's LCP on a phone is simulated (Lantern,
 * `@paulirish/trace_engine` lantern/metrics/FirstContentfulPaint.js, getFirstPaintBasedGraph) from the
 * requests of the observed load that ended by its observed LCP. A script among them is left out only when
 * Lantern can tell it ran after the paint: its first `EvaluateScript` is in a main-thread task that started
 * after the observed LCP *and* lasted 10 ms or more, since the dependency graph prunes shorter tasks
 * (lantern/graph/PageDependencyGraph.js, SIGNIFICANT_DUR_THRESHOLD_MS) and a script whose task was pruned
 * counts whenever it ran. So the framework's chunks weigh on the estimate when they finished downloading
 * before the first paint, the short ones even if they ran after it (docs/performance.md). The bench prints,
 * beside each run's LCP, how much script the estimate counted by this rule.
 */
export interface TraceEventLike {
  name: string;
  ts: number;
  dur?: number;
  pid?: number;
  tid?: number;
  args?: { data?: { url?: string } };
}

/** A script request of the load: its URL and when it ended, in milliseconds from the navigation's start. */
export interface ScriptRequest {
  url: string;
  networkEndMs: number;
}

/** Lantern's threshold: a main-thread task shorter than this is pruned from the graph. */
const SIGNIFICANT_TASK_US = 10_000;

/**
 * The URLs of `scripts` that the LCP estimate counts: ended by the observed LCP, and not evaluated first in
 * a significant task that started after it. Times: `timeOriginTs` and `lcpTs` in trace microseconds.
 */
export function scriptsCountedForLcp(
  traceEvents: readonly TraceEventLike[],
  scripts: readonly ScriptRequest[],
  timeOriginTs: number,
  lcpTs: number,
): string[] {
  const tasks = traceEvents.filter((event) => event.name === "RunTask" && event.dur !== undefined);
  const firstEvaluation = new Map<string, TraceEventLike>();
  for (const event of traceEvents) {
    const url = event.args?.data?.url;
    if (event.name !== "EvaluateScript" || !url) continue;
    const known = firstEvaluation.get(url);
    if (!known || event.ts < known.ts) firstEvaluation.set(url, event);
  }
  const lcpMs = (lcpTs - timeOriginTs) / 1000;
  return scripts
    .filter((script) => script.networkEndMs <= lcpMs)
    .filter((script) => {
      const evaluation = firstEvaluation.get(script.url);
      if (!evaluation) return true;
      const task = tasks.find(
        (candidate) =>
          candidate.pid === evaluation.pid &&
          candidate.tid === evaluation.tid &&
          candidate.ts <= evaluation.ts &&
          evaluation.ts < candidate.ts + candidate.dur!,
      );
      if (!task) return true;
      return task.ts <= lcpTs || task.dur! < SIGNIFICANT_TASK_US;
    })
    .map((script) => script.url);
}
