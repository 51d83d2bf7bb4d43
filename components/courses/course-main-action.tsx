"use client";

import { hasAccessEnded } from "@/lib/format/access";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";

import { CourseSiteLink } from "./course-site-link";
import { ResumeLink } from "./resume-link";

/**
 * A course's way forward, in words that follow its progress: "Renew access" once access ended, "Start
 * course" when never started (or at 0 %), "Watch again" when finished, "Open course" when the site failed to
 * say where the member left off, otherwise "Resume at m:ss".
 */
export function CourseMainAction({ course }: { course: CourseEnrollment }) {
  const { messages, now } = useI18n();
  if (hasAccessEnded(course.access, now)) {
    return course.courseUrl ? (
      <CourseSiteLink href={course.courseUrl} label={messages.courses.renewAccess} courseName={course.name} />
    ) : null;
  }
  // The site failed to say where the member left off: its course page knows.
  if (course.lastWatchedUnknown) {
    return course.courseUrl ? (
      <CourseSiteLink href={course.courseUrl} label={messages.courses.openCourse} courseName={course.name} />
    ) : null;
  }
  const { lastWatched } = course;
  if (lastWatched && course.completionPercentage === 100) {
    return <CourseSiteLink href={lastWatched.resumeUrl} label={messages.courseProgress.watchAgain} courseName={course.name} />;
  }
  if (lastWatched && course.completionPercentage !== 0) return <ResumeLink courseName={course.name} lastWatched={lastWatched} />;
  const start = course.courseUrl ?? lastWatched?.resumeUrl;
  return start ? <CourseSiteLink href={start} label={messages.courses.startCourse} courseName={course.name} /> : null;
}
