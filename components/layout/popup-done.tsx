"use client";

import { PageLink } from "@/components/ui/page-link";
import { useEffect, useState } from "react";

import { notifyOpener, SIGNED_IN_MESSAGE } from "@/lib/client/embedding";
import { useI18n } from "@/lib/i18n/provider";
import { PAGE_PATHS } from "@/lib/contract/paths";

/** The end of a popup sign-in: hands the one-time code to the embedded dashboard that opened it, then closes. */
export function PopupDone() {
  const { messages } = useI18n();
  const [handedOff, setHandedOff] = useState<boolean | null>(null);

  useEffect(() => {
    const code = new URLSearchParams(window.location.hash.slice(1)).get("handoff");
    // The code leaves the address bar and history at once.
    window.history.replaceState(null, "", window.location.pathname);
    const sent = code !== null && notifyOpener({ type: SIGNED_IN_MESSAGE, code });
    // eslint-disable-next-line react-hooks/set-state-in-effect -- reads window state that only exists after mount
    setHandedOff(sent);
    if (sent) window.setTimeout(() => window.close(), 300);
  }, []);

  return (
    <div className="mx-auto flex max-w-md flex-col items-start gap-4 py-10">
      <h1 className="text-2xl font-semibold text-fg">{messages.embedded.popupDoneTitle}</h1>
      <p className="text-fg-muted">{messages.embedded.popupDoneBody}</p>
      {handedOff === false ? (
        <PageLink className="btn btn-primary" href={PAGE_PATHS.overview}>
          {messages.embedded.popupDoneFallback}
        </PageLink>
      ) : null}
    </div>
  );
}
