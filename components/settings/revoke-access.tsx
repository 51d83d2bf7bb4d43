"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";

import { unreachable, type ApiError } from "@/lib/client/api";
import { isInFrame, openPopupAndAwait, pressIsRecentEnoughForAWindow, REVOKE_CONFIRMED_MESSAGE } from "@/lib/client/embedding";
import { useRevokeAccess } from "@/lib/client/hooks";
import { useFocusOnReturn } from "@/lib/client/return-focus";
import { SETTINGS_WORDS } from "@/lib/i18n/messages/settings";
import { popupPagePath } from "@/lib/i18n/locales";
import { useI18n, useWords } from "@/lib/i18n/provider";
import { ActionFailedAlert } from "@/components/ui/action-failed-alert";
import { PressedBeforeHydrationNotice, usePressBeforeHydration } from "@/components/ui/press-before-hydration";
import { PAGE_PATHS } from "@/lib/contract/paths";

/** The control the confirmation's Cancel returns focus to (lib/client/return-focus.ts). */
export const REVOKE_BUTTON = "revoke-access";

/**
 * "Revoke access" in Settings. The confirmation is a page of its own that is never framed: in the
 * dashboard's own tab the button goes there; inside the site's page it opens there as a popup, which
 * tells this frame when the member confirmed, and the frame then revokes with its own session.
 */
export function RevokeAccess() {
  const { messages, locale } = useI18n();
  const words = useWords(SETTINGS_WORDS);
  const revoke = useRevokeAccess();
  const [waiting, setWaiting] = useState(false);
  const [popupBlocked, setPopupBlocked] = useState(false);
  const [pressAgain, setPressAgain] = useState(false);
  const [offline, setOffline] = useState<ApiError | null>(null);
  const router = useRouter();
  const button = useRef<HTMLButtonElement>(null);
  // Back from the confirmation with Cancel: focus is where the member left it, not on <body>.
  useFocusOnReturn(REVOKE_BUTTON, button);

  async function start() {
    // The confirmation is a page of its own, which cannot open offline (the browser would show its error page).
    const online = navigator.onLine;
    setOffline(online ? null : unreachable("The browser is offline."));
    if (!online) return;
    if (!isInFrame()) {
      router.push(PAGE_PATHS.revoke);
      return;
    }
    setPopupBlocked(false);
    // Pressed before the page was interactive, long enough ago that the browser would refuse the window:
    // asked for one more press rather than told that pop-ups are blocked.
    const canOpenWindow = pressIsRecentEnoughForAWindow();
    setPressAgain(!canOpenWindow);
    if (!canOpenWindow) return;
    setWaiting(true);
    try {
      const confirmation = popupPagePath(`${PAGE_PATHS.revoke}?from=frame`, locale);
      await openPopupAndAwait(confirmation, "companion-dashboard-revoke", REVOKE_CONFIRMED_MESSAGE).result;
      revoke.mutate();
    } catch (error) {
      // The browser refused the window: said, with the way on. Closed or cancelled: nothing changes.
      setPopupBlocked(error instanceof Error && error.message === "popup_blocked");
    } finally {
      setWaiting(false);
    }
  }

  // Pressed while the page still loads its scripts, the button says so at once and acts once they have run.
  const early = usePressBeforeHydration(() => void start());

  return (
    <div className="flex flex-col items-start gap-3">
      <p className="text-fg-muted">{words.revokeBody}</p>
      <ActionFailedAlert error={offline ?? revoke.error} message={words.revokeFailed} />
      <button
        ref={button}
        type="button"
        className="btn btn-danger"
        {...early.button}
        disabled={revoke.isPending}
        aria-busy={waiting || revoke.isPending}
      >
        {revoke.isPending ? words.revoking : words.revoke}
      </button>
      {/* Always there, empty when it has nothing to say: a live region that appears with its words already
          in it is often not read out. */}
      <p role="status" className="empty:sr-only">
        {waiting ? words.revokeInWindow : pressAgain ? words.revokePressAgain : null}
      </p>
      {popupBlocked ? (
        <p role="alert" className="font-medium text-danger-fg">
          {words.revokePopupBlocked}
        </p>
      ) : null}
      <PressedBeforeHydrationNotice {...early.notice}>{messages.shell.continuesOnceLoaded}</PressedBeforeHydrationNotice>
    </div>
  );
}
