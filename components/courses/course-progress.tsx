"use client";

import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { ProgressBar } from "@/components/ui/progress-bar";

/**
 * A course's progress bar, named after the course ("Progress: Watercolour 101") with its value in words
 * ("40% complete"), wherever a course is shown; nothing when the site does not tell the progress.
 */
export function CourseProgress({ course, className }: { course: CourseEnrollment; className: string }) {
  const { messages } = useI18n();
  if (course.completionPercentage === null) return null;
  return (
    <div className={className}>
      <ProgressBar
        value={course.completionPercentage}
        label={interpolate(messages.shell.labelFor, { label: messages.courses.progress, name: course.name })}
        valueText={interpolate(messages.courses.progressLabel, { percent: course.completionPercentage })}
      />
    </div>
  );
}
