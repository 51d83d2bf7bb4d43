"use client";

import Link from "next/link";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { AccessBadge } from "@/components/courses/access-badge";
import { AccessReminderButton } from "@/components/courses/access-reminder-button";
import { PAGE_PATHS } from "@/lib/contract/paths";

/**
 * Courses whose access ends within 30 days, soonest first, each with "Add a reminder", and how many courses past
 * the overview's bound were not checked.
 */
export function EndingSoon({ courses, leftOut }: { courses: CourseEnrollment[]; leftOut: number | null }) {
  const { messages } = useI18n();
  return (
    <section aria-labelledby="overview-ending" className="flex flex-col gap-3">
      <h2 id="overview-ending" className="text-lg font-semibold text-fg">
        {messages.overview.endingSoon}
      </h2>
      {courses.length === 0 ? (
        <p className="text-fg-muted">{messages.overview.endingSoonEmpty}</p>
      ) : (
        <ul className="card divide-y divide-line">
          {courses.map((course) => (
            <li key={course.slug} className="flex flex-col items-start gap-2 p-4">
              <span className="font-medium text-fg">{course.name}</span>
              <AccessBadge access={course.access} />
              <AccessReminderButton course={course} />
            </li>
          ))}
        </ul>
      )}
      {leftOut === 0 ? null : (
        <p className="text-sm text-fg-muted">
          {leftOut === null ? messages.overview.coursesLeftOutUnknown : interpolate(messages.overview.coursesLeftOut, { count: leftOut })}
        </p>
      )}
      <p>
        <Link href={PAGE_PATHS.courses} className="inline-flex min-h-11 items-center text-accent underline">
          {messages.overview.allCourses}
        </Link>
      </p>
    </section>
  );
}
