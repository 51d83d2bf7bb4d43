"use client";

import { useEffect, useState } from "react";
import { whenIdle } from "@/lib/client/when-idle";
import { useI18n } from "@/lib/i18n/provider";
import { Mark } from "./mark";
import { PressedBeforeHydrationNotice, usePressBeforeHydration } from "./press-before-hydration";
import { VisuallyHidden } from "./visually-hidden";

/**
 * The calendar code (lib/format/ics.ts): never part of a page's first load, fetched once the page with a
 * calendar button is idle, so that a tap made offline later still makes the file.
 */
export function loadCalendarCode() {
  return import("@/lib/format/ics");
}

/** A calendar file's text and the name it downloads under. */
export interface CalendarFile {
  text: string;
  fileName: string;
}

/**
 * Downloads an .ics made in the browser on click. `makeFile` reads the calendar code through
 * loadCalendarCode, which the button fetches ahead once the page is idle. The accessible name is the label
 * followed, visually hidden, by what it is for, so several such buttons stay distinguishable. Pressed while
 * the page still loads its scripts, it says so and downloads once they have run (usePressBeforeHydration).
 */
export function CalendarFileButton({
  label,
  subject,
  makeFile,
}: {
  label: string;
  subject: string;
  makeFile: () => Promise<CalendarFile>;
}) {
  const { messages } = useI18n();
  const [failure, setFailure] = useState<"offline" | "other" | null>(null);
  useEffect(() => whenIdle(() => void loadCalendarCode().catch(() => undefined)), []);

  async function download() {
    try {
      const file = await makeFile();
      const url = URL.createObjectURL(new Blob([file.text], { type: "text/calendar;charset=utf-8" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = file.fileName;
      link.rel = "noopener";
      document.body.append(link);
      link.click();
      link.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 1_000);
      setFailure(null);
    } catch (error) {
      console.error(error);
      // Offline before the calendar code was fetched: "could not be reached", not "something went wrong".
      setFailure(navigator.onLine ? "other" : "offline");
    }
  }

  const early = usePressBeforeHydration(() => void download());

  return (
    <div className="flex flex-col items-start gap-1">
      <button type="button" className="btn btn-secondary" {...early.button}>
        <Mark shape="plus" />
        {label}
        <VisuallyHidden>{` – ${subject}`}</VisuallyHidden>
      </button>
      {failure ? (
        <p role="alert" className="text-sm text-danger-fg">
          {failure === "offline" ? messages.errors.network : messages.errors.unknown}
        </p>
      ) : null}
      <PressedBeforeHydrationNotice {...early.notice}>{messages.shell.continuesOnceLoaded}</PressedBeforeHydrationNotice>
    </div>
  );
}
