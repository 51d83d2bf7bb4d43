import { Fragment, type ReactNode } from "react";

/**
 * `text`, with each of `pieces` it holds in a span that no line break falls inside (a date, "in 3 months"):
 * a narrow screen then wraps between them, never within one ("(in 3" and "months)" on two lines). Put it in
 * one element of its own where its parent is a flex container, or each piece becomes a flex item.
 */
export function TextKeptTogether({ text, pieces }: { text: string; pieces: readonly string[] }) {
  const parts: { text: string; kept: boolean }[] = [];
  let rest = text;
  for (;;) {
    const next = pieces
      .filter((piece) => piece !== "")
      .map((piece) => ({ piece, at: rest.indexOf(piece) }))
      .filter(({ at }) => at >= 0)
      .sort((a, b) => a.at - b.at)[0];
    if (!next) break;
    if (next.at > 0) parts.push({ text: rest.slice(0, next.at), kept: false });
    parts.push({ text: next.piece, kept: true });
    rest = rest.slice(next.at + next.piece.length);
  }
  if (rest !== "") parts.push({ text: rest, kept: false });
  return parts.map((part, index): ReactNode =>
    part.kept ? (
      <span key={index} className="whitespace-nowrap">
        {part.text}
      </span>
    ) : (
      <Fragment key={index}>{part.text}</Fragment>
    ),
  );
}
