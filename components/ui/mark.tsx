/** The shapes, on a 16-unit square, stroked in the text's colour. */
const SHAPES = {
  check: "M3.5 8.5 6.5 11.5 12.5 4.5",
  cross: "M4.5 4.5l7 7M11.5 4.5l-7 7",
  plus: "M8 3.5v9M3.5 8h9",
  chevronDown: "M4 6l4 4 4-4",
  chevronRight: "M6 4l4 4-4 4",
} as const;

export type MarkShape = keyof typeof SHAPES;

/**
 * A small decorative mark beside words, as tall as the text around it. Drawn rather than written: Geist,
 * the interface's font, has no ✓, ✕, ＋, ▾ or ▸, and a character the font lacks makes the browser look
 * through the system's fonts during the page's first layout (the fallback for ＋ is a CJK font of many
 * megabytes), which delayed the first paint and drew the mark in another typeface on every platform.
 */
export function Mark({ shape, className = "" }: { shape: MarkShape; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      data-mark={shape}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={`inline-block size-[1em] shrink-0 ${className}`}
    >
      <path d={SHAPES[shape]} />
    </svg>
  );
}
