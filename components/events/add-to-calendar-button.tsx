"use client";

import { useI18n } from "@/lib/i18n/provider";
import type { EventRegistration } from "@/lib/types/account";
import { CalendarFileButton, loadCalendarCode } from "@/components/ui/calendar-file-button";

/** Downloads the event as `<slug>.ics`, built in the browser from the registration. */
export function AddToCalendarButton({ registration }: { registration: EventRegistration }) {
  const { messages, now } = useI18n();
  return (
    <CalendarFileButton
      label={messages.events.addToCalendar}
      subject={registration.event.title}
      makeFile={async () => {
        const { buildIcs, icsFileName } = await loadCalendarCode();
        return { text: buildIcs(registration, { now }), fileName: icsFileName(registration) };
      }}
    />
  );
}
