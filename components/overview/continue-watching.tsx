"use client";

import { isAccessEndingSoon } from "@/lib/format/access";
import { formatPosition } from "@/lib/format/position";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { ProgressBar } from "@/components/ui/progress-bar";
import { AccessBadge } from "@/components/courses/access-badge";
import { CourseMainAction } from "@/components/courses/course-main-action";

/** Up to three courses in progress, most recently watched first, each with its action (and its badge when access ends soon). */
export function ContinueWatching({ courses }: { courses: CourseEnrollment[] }) {
  const { messages, now } = useI18n();
  return (
    <section aria-labelledby="overview-continue" className="flex flex-col gap-3">
      <h2 id="overview-continue" className="text-lg font-semibold text-fg">
        {messages.overview.continueWatching}
      </h2>
      {courses.length === 0 ? (
        <p className="text-fg-muted">{messages.overview.continueWatchingEmpty}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {courses.map((course) => (
            <li key={course.slug}>
              <article className="card flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5">
                <div className="flex min-w-0 flex-col gap-1">
                  <h3 className="font-semibold text-fg">{course.name}</h3>
                  {course.lastWatched ? (
                    <p className="text-sm text-fg-muted">
                      {course.lastWatched.title
                        ? `${course.lastWatched.title} · ${formatPosition(course.lastWatched.positionSeconds)}`
                        : formatPosition(course.lastWatched.positionSeconds)}
                    </p>
                  ) : null}
                  {isAccessEndingSoon(course.access, now) ? <AccessBadge access={course.access} /> : null}
                  {course.completionPercentage !== null ? (
                    <div className="max-w-xs">
                      <ProgressBar
                        value={course.completionPercentage}
                        label={`${messages.courses.progress}: ${course.name}`}
                        valueText={interpolate(messages.courses.progressLabel, { percent: course.completionPercentage })}
                      />
                    </div>
                  ) : null}
                </div>
                <div className="shrink-0">
                  <CourseMainAction course={course} />
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
