"use client";

import { useEffect, useRef, useState } from "react";

import { handToOpener, SIGNED_IN_MESSAGE } from "@/lib/client/embedding";
import { POPUP_DONE_WORDS } from "@/lib/i18n/messages/popup-done";
import { useWords } from "@/lib/i18n/provider";
import { loginPath, PAGE_PATHS } from "@/lib/contract/paths";

/**
 * The end of a popup sign-in: hands the one-time code to the embedded dashboard that opened it and, once
 * that page says it took it, closes.
 */
export function PopupDone() {
  const words = useWords(POPUP_DONE_WORDS);
  const [handedOff, setHandedOff] = useState<boolean | null>(null);

  // One handoff per page, kept across React's re-run of effects: the code is read from the address once.
  const handoff = useRef<Promise<boolean> | null>(null);

  useEffect(() => {
    if (!handoff.current) {
      const code = new URLSearchParams(window.location.hash.slice(1)).get("handoff");
      // The code leaves the address bar and history at once; the panel's language (`?lang=`) stays, so a
      // reload of this window still speaks it.
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
      handoff.current = code === null ? Promise.resolve(false) : handToOpener({ type: SIGNED_IN_MESSAGE, code });
    }
    let current = true;
    void handoff.current.then((taken) => {
      if (!current) return;
      setHandedOff(taken);
      if (taken) window.setTimeout(() => window.close(), 300);
    });
    return () => {
      current = false;
    };
  }, []);

  // Until the code is handed over, nothing is claimed; when there is no panel to take it, the sign-in is
  // not done (a popup's sign-in opens no session of its own): signing in here is the way on.
  const title = handedOff === null ? words.finishing : handedOff ? words.doneTitle : words.lostTitle;
  return (
    <div className="mx-auto flex max-w-md flex-col items-start gap-4 py-10">
      <h1 className="text-2xl font-semibold text-fg">{title}</h1>
      {handedOff === true ? <p className="text-fg-muted">{words.doneBody}</p> : null}
      {handedOff === false ? (
        <>
          <p className="text-fg-muted">{words.lostBody}</p>
          <a className="btn btn-primary" href={loginPath(PAGE_PATHS.overview)}>
            {words.openHere}
          </a>
        </>
      ) : null}
    </div>
  );
}
