"use client";

import { useState } from "react";
import { useI18n } from "@/lib/i18n/provider";
import { VisuallyHidden } from "./visually-hidden";

/** A calendar file's text and the name it downloads under. */
export interface CalendarFile {
  text: string;
  fileName: string;
}

/**
 * Downloads an .ics made in the browser on click. `makeFile` loads the calendar code itself (a dynamic
 * import), so the `ics` package is never part of a page's first load. The accessible name is the label
 * followed, visually hidden, by what it is for, so several such buttons stay distinguishable.
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
  const [failed, setFailed] = useState(false);

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
      setFailed(false);
    } catch (error) {
      console.error(error);
      setFailed(true);
    }
  }

  return (
    <div className="flex flex-col items-start gap-1">
      <button type="button" className="btn btn-secondary" onClick={() => void download()}>
        <span aria-hidden="true">＋</span>
        {label}
        <VisuallyHidden>{` – ${subject}`}</VisuallyHidden>
      </button>
      {failed ? (
        <p role="alert" className="text-sm text-danger-fg">
          {messages.errors.unknown}
        </p>
      ) : null}
    </div>
  );
}
