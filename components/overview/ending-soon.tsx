"use client";

import Link from "next/link";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { AccessBadge } from "@/components/courses/access-badge";

/** Courses whose access ends within 14 days, soonest first, and how many courses past the overview's bound were not checked. */
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
            <li key={course.slug} className="flex flex-col gap-1.5 p-4 sm:flex-row sm:items-center sm:justify-between">
              <span className="font-medium text-fg">{course.name}</span>
              <AccessBadge access={course.access} />
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
        <Link href="/courses" className="inline-flex min-h-11 items-center text-accent underline">
          {messages.overview.allCourses}
        </Link>
      </p>
    </section>
  );
}
