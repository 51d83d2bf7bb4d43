"use client";

import { canRemindBeforeAccessEnds, hasAccessEnded } from "@/lib/format/access";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { ProgressBar } from "@/components/ui/progress-bar";
import { AccessBadge } from "./access-badge";
import { AccessReminderButton } from "./access-reminder-button";
import { CourseMainAction } from "./course-main-action";

/**
 * One enrollment: cover, name, access state in words, progress when the site gives it, the last lecture
 * and the way forward: Resume, Start course when never started, Renew access once ended (no Resume or
 * Start then), and Add a reminder while access ends within 30 days.
 */
export function CourseCard({ course, headingLevel = 2 }: { course: CourseEnrollment; headingLevel?: 2 | 3 }) {
  const { messages, now } = useI18n();
  const ended = hasAccessEnded(course.access, now);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className={`card flex h-full flex-col overflow-hidden ${ended ? "bg-surface-muted" : ""}`}>
      {course.imageUrl ? (
        // Course covers come from the site's own CDN, whose hosts are not known at build time for next/image.
        // eslint-disable-next-line @next/next/no-img-element
        <img
          src={course.imageUrl}
          alt=""
          loading="lazy"
          decoding="async"
          className={`aspect-[16/9] w-full object-cover ${ended ? "grayscale" : ""}`}
        />
      ) : (
        <div aria-hidden="true" className="aspect-[16/9] w-full bg-gradient-to-br from-accent-soft to-surface-muted" />
      )}
      <div className="flex flex-1 flex-col gap-3 p-4 sm:p-5">
        <Heading className="text-lg font-semibold leading-snug text-fg">{course.name}</Heading>
        <div>
          <AccessBadge access={course.access} />
        </div>
        {course.completionPercentage !== null ? (
          <ProgressBar
            value={course.completionPercentage}
            label={`${messages.courses.progress}: ${course.name}`}
            valueText={interpolate(messages.courses.progressLabel, { percent: course.completionPercentage })}
          />
        ) : null}
        {course.lastWatched?.title ? (
          <p className="text-sm text-fg-muted">{interpolate(messages.courses.lastLecture, { title: course.lastWatched.title })}</p>
        ) : null}
        <CourseActions course={course} ended={ended} />
      </div>
    </article>
  );
}

function CourseActions({ course }: { course: CourseEnrollment; ended: boolean }) {
  const { now, timeZone } = useI18n();
  const main = <CourseMainAction course={course} />;
  const reminder = canRemindBeforeAccessEnds(course.access, now, timeZone);
  if (!main && !reminder) return null;
  return (
    <div className="mt-auto flex flex-col gap-2 pt-1 sm:flex-row sm:flex-wrap sm:items-start">
      {main}
      {reminder ? <AccessReminderButton course={course} /> : null}
    </div>
  );
}
