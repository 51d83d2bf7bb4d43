"use client";

import { canRemindBeforeAccessEnds, hasAccessEnded } from "@/lib/format/access";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { AccessBadge } from "./access-badge";
import { AccessReminderButton } from "./access-reminder-button";
import { CourseCover } from "./course-cover";
import { CourseMainAction } from "./course-main-action";
import { CourseProgress } from "./course-progress";

/**
 * One enrollment. On phones (below 640 px) and always in the companion panel, a compact row: name,
 * progress, the access state in words and the one way forward (Resume, Start course, or Renew access once
 * ended), so that five rows fit a phone's screen. From 640 px, a card with the cover, the last lecture and
 * "Add a reminder" while access ends within 30 days and a reminder can still come in time
 * (canRemindBeforeAccessEnds). Rows offer the reminder too where the member is looking at deadlines
 * (`remindersInRows`: Courses' Ending soon; the Overview's Ending soon list has its own). A row narrower than
 * 22rem (a phone under 384 px, the panel), or one with a reminder, puts the access state and the actions one
 * under the other: side by side, the state would wrap into a tall pill or run under the buttons.
 */
export function CourseCard({
  course,
  headingLevel = 2,
  rowOnly = false,
  remindersInRows = false,
}: {
  course: CourseEnrollment;
  headingLevel?: 2 | 3;
  rowOnly?: boolean;
  remindersInRows?: boolean;
}) {
  const { messages, now } = useI18n();
  const ended = hasAccessEnded(course.access, now);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  // Card classes apply from 640 px, unless the panel keeps rows at every width.
  const card = rowOnly
    ? { article: "", cover: "hidden", body: "", heading: "", detail: "hidden", actions: "" }
    : {
        article: "sm:flex sm:flex-col",
        cover: "hidden sm:block",
        body: "sm:flex sm:flex-1 sm:flex-col sm:items-stretch sm:gap-3 sm:p-5",
        heading: "sm:text-lg",
        detail: "hidden sm:block",
        actions: "sm:mt-auto sm:flex-wrap sm:items-start sm:pt-1",
      };
  return (
    <article className={`card @container h-full overflow-hidden ${card.article} ${ended ? "bg-surface-muted" : ""}`}>
      <CourseCover src={course.imageUrl} className={`${card.cover} aspect-[16/9] w-full ${ended ? "grayscale" : ""}`} />
      <div className={`grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1.5 p-3 ${card.body}`}>
        {/* Whole, on as many lines as it takes: with larger text or wider spacing, a cut name would lose its end. */}
        <Heading className={`col-span-2 text-base font-semibold leading-snug text-fg ${card.heading}`}>{course.name}</Heading>
        <div className="col-start-1 row-start-3 min-w-0 @max-[22rem]:col-span-2">
          <AccessBadge access={course.access} />
        </div>
        {course.lastWatchedUnknown && !ended ? (
          // Why the way forward is "Open course": said under the progress, before the button.
          <div className="col-span-2 row-start-2 flex flex-col gap-1.5">
            <CourseProgress course={course} className="" />
            <p className="text-sm text-fg-muted">{messages.courses.lastWatchedUnknown}</p>
          </div>
        ) : (
          <CourseProgress course={course} className="col-span-2 row-start-2" />
        )}
        {course.lastWatched?.title ? (
          <p className={`${card.detail} text-sm text-fg-muted`}>
            {interpolate(messages.courses.lastLecture, { title: course.lastWatched.title })}
          </p>
        ) : null}
        <CourseActions
          course={course}
          className={card.actions}
          reminderHiddenClass={remindersInRows ? null : rowOnly ? "hidden" : "hidden sm:block"}
        />
      </div>
    </article>
  );
}

/** In a row narrower than 22rem, the way forward takes the row's whole width, under the access state. */
const STACKED_UNDER_THE_STATE = "col-start-2 row-start-3 @max-[22rem]:col-span-2 @max-[22rem]:col-start-1 @max-[22rem]:row-start-4";
/** With "Add a reminder" beside the way forward, the actions always have the row's width, under the access state. */
const ACTIONS_WITH_A_REMINDER = "col-span-2 col-start-1 row-start-4 flex-wrap";

/** `reminderHiddenClass`: where "Add a reminder" is left out (the rows), or null when the rows offer it too. */
function CourseActions({
  course,
  className,
  reminderHiddenClass,
}: {
  course: CourseEnrollment;
  className: string;
  reminderHiddenClass: string | null;
}) {
  const { now, timeZone } = useI18n();
  const main = <CourseMainAction course={course} />;
  const reminder = canRemindBeforeAccessEnds(course.access, now, timeZone);
  if (!main && !reminder) return null;
  const reminderInRow = reminder && reminderHiddenClass === null;
  return (
    <div className={`flex gap-2 ${reminderInRow ? ACTIONS_WITH_A_REMINDER : STACKED_UNDER_THE_STATE} ${className}`}>
      {main}
      {reminder ? (
        <div className={reminderHiddenClass ?? ""}>
          <AccessReminderButton course={course} />
        </div>
      ) : null}
    </div>
  );
}
