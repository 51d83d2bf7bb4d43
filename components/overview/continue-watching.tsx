"use client";

import { formatPosition } from "@/lib/format/position";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { ProgressBar } from "@/components/ui/progress-bar";
import { ResumeLink } from "@/components/courses/resume-link";

/** The most recently watched lecture, with its Resume link. */
export function ContinueWatching({ course }: { course: CourseEnrollment | null }) {
  const { messages } = useI18n();
  return (
    <section aria-labelledby="overview-continue" className="flex flex-col gap-3">
      <h2 id="overview-continue" className="text-lg font-semibold text-fg">
        {messages.overview.continueWatching}
      </h2>
      {course?.lastWatched ? (
        <article className="card flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5">
          <div className="flex min-w-0 flex-col gap-1">
            <h3 className="font-semibold text-fg">{course.name}</h3>
            <p className="text-sm text-fg-muted">
              {course.lastWatched.title
                ? `${course.lastWatched.title} · ${formatPosition(course.lastWatched.positionSeconds)}`
                : formatPosition(course.lastWatched.positionSeconds)}
            </p>
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
            <ResumeLink courseName={course.name} lastWatched={course.lastWatched} />
          </div>
        </article>
      ) : (
        <p className="text-fg-muted">{messages.overview.continueWatchingEmpty}</p>
      )}
    </section>
  );
}
