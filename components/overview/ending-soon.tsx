"use client";

import { PageLink } from "@/components/ui/page-link";
import { canRemindBeforeAccessEnds } from "@/lib/format/access";
import { courseChoiceQuery } from "@/lib/format/course-filter";
import { interpolate, seeAllCourses } from "@/lib/i18n";
import { OVERVIEW_WORDS } from "@/lib/i18n/messages/overview";
import { useI18n, useWords } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { AccessBadge } from "@/components/courses/access-badge";
import { AccessReminderButton } from "@/components/courses/access-reminder-button";
import { CourseMainAction } from "@/components/courses/course-main-action";
import { PageSection } from "@/components/ui/page-section";
import { PAGE_PATHS } from "@/lib/contract/paths";

/** Courses shown under "Access ending soon"; "See all N courses" ("See it on the Courses page" for one) leads to the Courses page. */
const ENDING_SOON_SHOWN = 3;

/** The Courses page with Ending soon chosen, soonest first. */
export const ENDING_SOON_COURSES_PATH = `${PAGE_PATHS.courses}${courseChoiceQuery({ show: "ending-soon", sort: "expiry", q: "" })}`;

/**
 * Up to three courses whose access ends within 30 days, soonest first, each with its action and "Add a
 * reminder" while a reminder can still come before the end; "See all N courses"; and how many courses past the
 * overview's bound were not checked. With none ending soon, it says that no course ends only when it saw
 * every course: past the bound (`leftOut`) or listed but not given (`unavailable`), any may.
 */
export function EndingSoon({
  courses,
  leftOut,
  unavailable = 0,
}: {
  courses: CourseEnrollment[];
  leftOut: number | null;
  /** Courses the site listed but could not give (Continue watching says how many). */
  unavailable?: number;
}) {
  const { messages, now, timeZone } = useI18n();
  const words = useWords(OVERVIEW_WORDS);
  const sawEveryCourse = leftOut === 0 && unavailable === 0;
  return (
    <PageSection id="overview-ending" title={words.endingSoon}>
      {courses.length === 0 ? (
        <p className="text-fg-muted">{sawEveryCourse ? words.endingSoonEmpty : words.endingSoonNoneLoaded}</p>
      ) : (
        <ul className="card divide-y divide-line">
          {courses.slice(0, ENDING_SOON_SHOWN).map((course) => (
            <li key={course.slug} className="flex flex-col items-start gap-2 p-4">
              <span className="font-medium text-fg">{course.name}</span>
              <AccessBadge access={course.access} />
              <div className="flex w-full flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-start">
                <CourseMainAction course={course} />
                {canRemindBeforeAccessEnds(course.access, now, timeZone) ? <AccessReminderButton course={course} /> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      {leftOut === 0 ? null : (
        <p className="text-sm text-fg-muted">
          {leftOut === null ? words.coursesLeftOutUnknown : interpolate(words.coursesLeftOut, { count: leftOut })}
        </p>
      )}
      <p>
        <PageLink
          href={courses.length > 0 ? ENDING_SOON_COURSES_PATH : PAGE_PATHS.courses}
          className="inline-flex min-h-11 items-center text-accent underline"
        >
          {courses.length > 0 ? seeAllCourses(messages, courses.length) : words.allCourses}
        </PageLink>
      </p>
    </PageSection>
  );
}
