"use client";

import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { CalendarFileButton, loadCalendarCode } from "@/components/ui/calendar-file-button";

/** "Add a reminder": an all-day calendar event the day before the course's access ends, with its link. */
export function AccessReminderButton({ course }: { course: CourseEnrollment }) {
  const { messages, formatLocale, timeZone, now } = useI18n();
  return (
    <CalendarFileButton
      label={messages.courses.addReminder}
      subject={course.name}
      makeFile={async () => {
        const { accessReminderFileName, buildAccessReminderIcs } = await loadCalendarCode();
        return { text: buildAccessReminderIcs(course, { formatLocale, timeZone, now }), fileName: accessReminderFileName(course) };
      }}
    />
  );
}
