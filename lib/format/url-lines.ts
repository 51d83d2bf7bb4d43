/** Characters a line may break after: a path's "/" (never between the two of "//") and a host's ".". */
const BREAK_AFTER = new Set(["/", "."]);
/** Characters a line may break before: the port's ":" and the query's and fragment's "?", "&", "=", "#". */
const BREAK_BEFORE = new Set([":", "?", "&", "=", "#"]);

/**
 * A URL cut where a reader expects it to go on to the next line, for a <wbr> between the pieces:
 * after the scheme's "//", after each "/" and "." (the line ends on it, so it plainly goes on), and before
 * ":", "?", "&", "=" and "#" (the port, the query and the fragment start their line). Never inside the scheme,
 * a host's label, the port's digits or a path segment: a piece wider than its box is left to the box's
 * `overflow-wrap: anywhere`. The pieces joined are the URL.
 */
export function urlPieces(url: string): string[] {
  const scheme = url.indexOf("://");
  const first = scheme === -1 ? 0 : scheme + 3;
  const pieces: string[] = [];
  let start = 0;
  for (let index = first; index < url.length; index++) {
    const char = url[index]!;
    const afterPrevious = index > first && BREAK_AFTER.has(url[index - 1]!) && char !== "/";
    const before = index > first && BREAK_BEFORE.has(char);
    if ((index === first && first > 0) || afterPrevious || before) {
      pieces.push(url.slice(start, index));
      start = index;
    }
  }
  pieces.push(url.slice(start));
  return pieces.filter((piece) => piece !== "");
}
