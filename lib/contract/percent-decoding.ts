/**
 * Percent-decodes `value` until it stops changing (at most three rounds, enough for double and triple
 * encoding), so checks see `%252F%252F` as the `//` a browser or router may eventually read.
 * Returns undefined when the value is not valid percent-encoding.
 */
export function decodeRepeatedly(value: string): string | undefined {
  let decoded = value;
  for (let round = 0; round < 3; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return undefined;
    }
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}
