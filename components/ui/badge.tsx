import type { ReactNode } from "react";

import { Mark } from "./mark";

export type BadgeTone = "neutral" | "success" | "ok" | "warning" | "danger" | "muted" | "lifetime";

const TONE_CLASSES: Record<BadgeTone, string> = {
  neutral: "bg-accent-soft text-fg",
  success: "bg-ok-bg text-ok-fg",
  ok: "bg-ok-bg text-ok-fg",
  warning: "bg-warning-bg text-warning-fg",
  danger: "bg-danger-bg text-danger-fg",
  muted: "bg-muted-bg text-muted-fg",
  lifetime: "bg-lifetime-bg text-lifetime-fg",
};

/** Marker shapes differ per tone, so the state never rests on colour alone (the words carry it too). */
const TONE_MARKERS: Record<BadgeTone, ReactNode> = {
  neutral: "•",
  success: <Mark shape="check" />,
  ok: <Mark shape="check" />,
  warning: "!",
  danger: <Mark shape="cross" />,
  muted: "–",
  lifetime: "∞",
};

/** A status in words, tinted by tone. A pill on one line (the radius is half its height); wrapped, a rounded box. */
export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-xl px-2.5 py-0.5 text-sm font-medium ${TONE_CLASSES[tone]}`}
      data-tone={tone}
    >
      <span aria-hidden="true" className="text-xs font-bold">
        {TONE_MARKERS[tone]}
      </span>
      {children}
    </span>
  );
}
