"use client";

import { formatPosition, isPastStart } from "@/lib/format/position";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { LastWatched } from "@/lib/types/account";
import { VisuallyHidden } from "@/components/ui/visually-hidden";

/**
 * "Resume at 12:34" ("Resume" at the lecture's start), linking to the lecture on the site. The accessible
 * name starts with the visible words; the course name follows, visually hidden, so several Resume links
 * stay distinguishable.
 */
export function ResumeLink({ courseName, lastWatched }: { courseName: string; lastWatched: LastWatched }) {
  const { messages } = useI18n();
  return (
    <a className="btn btn-primary w-full sm:w-auto" href={lastWatched.resumeUrl} target="_top">
      <span aria-hidden="true">▶</span>
      {isPastStart(lastWatched.positionSeconds)
        ? interpolate(messages.courses.resumeAt, { position: formatPosition(lastWatched.positionSeconds) })
        : messages.courses.resume}
      <VisuallyHidden>{` – ${courseName}`}</VisuallyHidden>
    </a>
  );
}
