/**
 * Answers remembered by a string key that may come from a request (a header, a cookie, a time zone):
 * past `maxEntries` keys the memory starts over, and a key longer than `maxKeyLength` is answered
 * without being remembered, so it stays bounded whatever values arrive. For answers that are pure and
 * cheap enough to work out again after a start over.
 */
export interface BoundedMemory<V> {
  /** The answer remembered for `key`, else `compute(key)`, remembered unless it throws. */
  get(key: string, compute: (key: string) => V): V;
  /** How many keys are remembered (for tests). */
  readonly size: number;
}

export function boundedMemory<V>(maxEntries: number, maxKeyLength = 256): BoundedMemory<V> {
  const entries = new Map<string, V>();
  return {
    get(key, compute) {
      if (entries.has(key)) return entries.get(key) as V;
      // Worked out before it is stored: a key whose answer throws stores nothing.
      const value = compute(key);
      if (key.length <= maxKeyLength) {
        if (entries.size >= maxEntries) entries.clear();
        entries.set(key, value);
      }
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}
