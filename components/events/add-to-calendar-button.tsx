"use client";

import { useState } from "react";
import { buildIcs, icsFileName } from "@/lib/format/ics";
import { useI18n } from "@/lib/i18n/provider";
import type { EventRegistration } from "@/lib/types/account";
import { VisuallyHidden } from "@/components/ui/visually-hidden";

/** Downloads the event as `<slug>.ics`, built in the browser from the registration. */
export function AddToCalendarButton({ registration }: { registration: EventRegistration }) {
  const { messages, now } = useI18n();
  const [failed, setFailed] = useState(false);

  function download() {
    try {
      const text = buildIcs(registration, { now });
      const url = URL.createObjectURL(new Blob([text], { type: "text/calendar;charset=utf-8" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = icsFileName(registration);
      link.rel = "noopener";
      document.body.append(link);
      link.click();
      link.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
      setFailed(false);
    } catch (error) {
      console.error(error);
      setFailed(true);
    }
  }

  return (
    <div className="flex flex-col items-start gap-1">
      <button type="button" className="btn btn-secondary" onClick={download}>
        <span aria-hidden="true">＋</span>
        {messages.events.addToCalendar}
        <VisuallyHidden>{`: ${registration.event.title}`}</VisuallyHidden>
      </button>
      {failed ? (
        <p role="alert" className="text-sm text-danger-fg">
          {messages.errors.unknown}
        </p>
      ) : null}
    </div>
  );
}
