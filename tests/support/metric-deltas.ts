import type { Metric } from "prom-client";

/** The current value of one series (a histogram's by its `_count`). */
async function valueOf(metric: Metric, labels: Record<string, string> = {}, suffix = ""): Promise<number> {
  const { name, values } = await metric.get();
  const matching = (values as { metricName?: string; labels: Record<string, string | number>; value: number }[]).find(
    (value) =>
      (suffix === "" ? value.metricName === undefined || value.metricName === name : value.metricName === `${name}${suffix}`) &&
      Object.entries(labels).every(([label, wanted]) => String(value.labels[label]) === wanted),
  );
  return matching?.value ?? 0;
}

type Series = [Metric, Record<string, string>, string?][];

/** How much `action` changed each of `series`, and what it gave (a route's answer, to check as well). */
export async function deltasAndResult<T>(series: Series, action: () => T | Promise<T>): Promise<{ changes: number[]; result: T }> {
  const before = await Promise.all(series.map(([metric, labels, suffix]) => valueOf(metric, labels, suffix)));
  const result = await action();
  const after = await Promise.all(series.map(([metric, labels, suffix]) => valueOf(metric, labels, suffix)));
  return { changes: after.map((value, index) => value - before[index]!), result };
}

/** How much `action` changed each of `series`. */
export async function deltas(series: Series, action: () => unknown): Promise<number[]> {
  return (await deltasAndResult(series, action)).changes;
}
