"use client";

import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { CalendarFileButton, loadCalendarCode } from "@/components/ui/calendar-file-button";

/** "Add a reminder": a calendar event before the course's access ends, with its link (when: lib/format/access-reminder.ts). */
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
