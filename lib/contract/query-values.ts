/** What a URL's query string can hand us: URLSearchParams, or Next's `searchParams` object. Client-safe. */
export type QueryValues = URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The first value of `name` in `query`, if any. */
export function firstValue(query: QueryValues, name: string): string | undefined {
  if (query instanceof URLSearchParams) return query.get(name) ?? undefined;
  const value = query[name];
  return typeof value === "string" ? value : value?.[0];
}

/**
 * A count a URL keeps (`?shown=72`, `?pages=3`): the whole number `name` holds, brought within `min` and
 * `max`; `min` when it is missing or not a whole number of at most six digits (no page writes a longer one).
 */
export function countInQuery(query: QueryValues, name: string, min: number, max: number): number {
  const value = firstValue(query, name);
  if (value === undefined || !/^\d{1,6}$/.test(value)) return min;
  return Math.min(Math.max(Number(value), min), max);
}
