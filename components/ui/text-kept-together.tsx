import type { ReactNode } from "react";

/** Text no line break falls inside while it fits on a line (app/globals.css). */
export const KEPT_TOGETHER = "kept-together";

/**
 * `text`, with each of `pieces` it holds in a span that no line break falls inside (a date, "in 3 months"):
 * a narrow screen then wraps between them, never within one ("(in 3" and "months)" on two lines). Put it in
 * one element of its own where its parent is a flex container, or each piece becomes a flex item.
 * A piece's span takes the punctuation around it ("(in 3 months)", "2027年1月16日，"): a browser may break
 * beside an inline block where it would not beside the same letters, and leave a "(" alone at a line's end.
 */
export function TextKeptTogether({ text, pieces }: { text: string; pieces: readonly string[] }): ReactNode {
  const alternatives = pieces.filter(Boolean).map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (alternatives.length === 0) return text;
  // With an opening bracket before it, closing or other punctuation after it; split keeps each at an odd index.
  const kept = new RegExp(`(\\p{Ps}*(?:${alternatives.join("|")})[\\p{Pe}\\p{Po}]*)`, "u");
  return text.split(kept).map((part, index) =>
    index % 2 ? (
      <span key={index} className={KEPT_TOGETHER}>
        {part}
      </span>
    ) : (
      part
    ),
  );
}
