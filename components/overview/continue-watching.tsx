"use client";

import { isAccessEndingSoon } from "@/lib/format/access";
import { formatPosition, isPastStart } from "@/lib/format/position";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment, LastWatched } from "@/lib/types/account";
import { PageSection } from "@/components/ui/page-section";
import { AccessBadge } from "@/components/courses/access-badge";
import { CourseMainAction } from "@/components/courses/course-main-action";
import { CourseProgress } from "@/components/courses/course-progress";

/** Up to three courses in progress, most recently watched first, each with its action (and its badge when access ends soon). */
export function ContinueWatching({ courses }: { courses: CourseEnrollment[] }) {
  const { messages, now } = useI18n();
  return (
    <PageSection id="overview-continue" title={messages.overview.continueWatching}>
      {courses.length === 0 ? (
        <p className="text-fg-muted">{messages.overview.continueWatchingEmpty}</p>
      ) : (
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
      )}
    </PageSection>
  );
}

/** The lecture watched last and where in it ("Painting skies · 12:34"); a position at the start is not named. */
function LastLecture({ lastWatched }: { lastWatched: LastWatched }) {
  const parts = [lastWatched.title, isPastStart(lastWatched.positionSeconds) ? formatPosition(lastWatched.positionSeconds) : ""];
  const line = parts.filter(Boolean).join(" · ");
  return line ? <p className="text-sm text-fg-muted">{line}</p> : null;
}
