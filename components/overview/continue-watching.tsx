"use client";

import { isAccessEndingSoon } from "@/lib/format/access";
import { formatPosition, isPastStart } from "@/lib/format/position";
import { FACT_SEPARATOR } from "@/lib/format/separator";
import { interpolate } from "@/lib/i18n";
import { OVERVIEW_WORDS } from "@/lib/i18n/messages/overview";
import { useI18n, useWords } from "@/lib/i18n/provider";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { PageLink } from "@/components/ui/page-link";
import type { CourseEnrollment, LastWatched } from "@/lib/types/account";
import { PageSection } from "@/components/ui/page-section";
import { AccessBadge } from "@/components/courses/access-badge";
import { CourseMainAction } from "@/components/courses/course-main-action";
import { CourseProgress } from "@/components/courses/course-progress";
import { UnavailableItems } from "@/components/ui/unavailable-items";
import type { RetryAction } from "@/components/ui/retry-button";

/**
 * Up to three courses in progress, most recently watched first, each with its action (and its badge when
 * access ends soon); how many more may be in progress where the site failed to say (`unknown`), with
 * the way to them; and, first, how many courses the site could not give at all (`unavailable`).
 */
export function ContinueWatching({
  courses,
  unknown,
  unavailable = 0,
  retry,
}: {
  courses: CourseEnrollment[];
  unknown: number;
  /** Courses the site listed but could not give: any of them may be in progress. */
  unavailable?: number;
  /** Asks the site for the overview again, from the note of courses it could not give. */
  retry?: RetryAction;
}) {
  const { messages, now } = useI18n();
  const words = useWords(OVERVIEW_WORDS);
  return (
    <PageSection id="overview-continue" title={words.continueWatching}>
      <UnavailableItems count={unavailable} words={messages.courses} {...retry} />
      {courses.length > 0 ? (
        <ul className="flex flex-col gap-3">
          {courses.map((course) => (
            <li key={course.slug}>
              <article className="card flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5">
                <div className="flex min-w-0 flex-col gap-1">
                  <h3 className="font-semibold text-fg">{course.name}</h3>
                  {course.lastWatched ? <LastLecture lastWatched={course.lastWatched} /> : null}
                  {isAccessEndingSoon(course.access, now) ? <AccessBadge access={course.access} /> : null}
                  <CourseProgress course={course} className="max-w-xs" />
                </div>
                <div className="shrink-0">
                  <CourseMainAction course={course} />
                </div>
              </article>
            </li>
          ))}
        </ul>
      ) : unknown === 0 && unavailable === 0 ? (
        <p className="text-fg-muted">{words.continueWatchingEmpty}</p>
      ) : null}
      {unknown > 0 ? (
        <>
          <p className="text-fg-muted">
            {unknown === 1 ? words.continueWatchingUnknownOne : interpolate(words.continueWatchingUnknown, { count: unknown })}
          </p>
          <p>
            <PageLink href={PAGE_PATHS.courses} className="inline-flex min-h-11 items-center text-accent underline">
              {words.allCourses}
            </PageLink>
          </p>
        </>
      ) : null}
    </PageSection>
  );
}

/** The lecture watched last and where in it ("Painting skies · 12:34"); a position at the start is not named. */
function LastLecture({ lastWatched }: { lastWatched: LastWatched }) {
  const parts = [lastWatched.title, isPastStart(lastWatched.positionSeconds) ? formatPosition(lastWatched.positionSeconds) : ""];
  const line = parts.filter(Boolean).join(FACT_SEPARATOR);
  return line ? <p className="text-sm text-fg-muted">{line}</p> : null;
}
