/**
 * Which scripts a load ran before its observed first paint. Lighthouse's LCP estimate (Lantern,
 * `@paulirish/trace_engine` lantern/metrics/FirstContentfulPaint.js, getRenderBlockingNodeData) keeps a
 * script's request and its task only when the script's first `EvaluateScript` started by the observed LCP:
 * the same bytes then read about 2.1 s or 2.7 s on a phone by whether the framework chunk ran before or
 * after the paint (docs/performance.md). The bench prints, beside each run's LCP, how much script it counted.
 */
export interface TraceEventLike {
  name: string;
  ts: number;
  args?: { data?: { url?: string } };
}

/** The URLs of the scripts whose evaluation started between `fromTs` and `untilTs` (trace microseconds), each once. */
export function scriptsEvaluatedBetween(traceEvents: readonly TraceEventLike[], fromTs: number, untilTs: number): string[] {
  const urls = new Set<string>();
  for (const event of traceEvents) {
    const url = event.args?.data?.url;
    if (event.name === "EvaluateScript" && url && event.ts >= fromTs && event.ts <= untilTs) urls.add(url);
  }
  return [...urls];
}
