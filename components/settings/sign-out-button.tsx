"use client";

import { useEffect, useId, useRef, useState } from "react";

import { useDeliberateClick } from "@/lib/client/deliberate-click";
import { isInFrame } from "@/lib/client/embedding";
import { useSignOut } from "@/lib/client/hooks";
import { useI18n } from "@/lib/i18n/provider";
import { ActionFailedAlert } from "@/components/ui/action-failed-alert";
import { PressedBeforeHydrationNotice, usePressBeforeHydration } from "@/components/ui/press-before-hydration";
import { useEmbedding } from "@/components/layout/embedding-context";

/**
 * Signs out (the site revokes this sign-in; the member's consent stays) and leaves for the signed-out page.
 * Inside the site's page (a frame the site controls) it asks first, and the confirmation cannot be clicked
 * through (OWASP ASVS 5 V3.4.6: destructive actions inside a frame need confirmation).
 */
export function SignOutButton() {
  const { messages } = useI18n();
  const signOut = useSignOutFlow();
  return (
    <div className="flex flex-col items-start gap-2">
      <p className="text-fg-muted">{messages.settings.signOutBody}</p>
      {signOut.confirming ? (
        <FrameSignOutConfirmation busy={signOut.busy} onConfirm={signOut.confirm} onCancel={signOut.cancel} />
      ) : (
        <button
          ref={signOut.returnFocus ? focusOnMount : undefined}
          type="button"
          className="btn btn-secondary"
          disabled={signOut.busy}
          aria-busy={signOut.pending}
          {...signOut.early.button}
        >
          {messages.accountMenu.signOut}
        </button>
      )}
      <ActionFailedAlert error={signOut.error} message={messages.accountMenu.signOutFailed} className="text-sm" />
      <PressedBeforeHydrationNotice {...signOut.early.notice}>{signOut.earlyNotice}</PressedBeforeHydrationNotice>
    </div>
  );
}

/**
 * Sign out as Settings and the header's account menu offer it: at the top level `start` signs out at once;
 * inside the site's page it only asks (`confirming`), and FrameSignOutConfirmation's `confirm` signs out.
 * The confirmation's Cancel sets `returnFocus`: the Sign out button, back in its place, then takes focus
 * (`ref={returnFocus ? focusOnMount : undefined}`), as it would otherwise fall to <body>. `reset` drops the
 * question without moving focus (the account menu closing). Pressed while the page still loads its scripts,
 * the button shows `earlyNotice` at once and `start` runs once they have (`early`, usePressBeforeHydration).
 */
export function useSignOutFlow() {
  const { messages } = useI18n();
  const { embedded } = useEmbedding();
  const signOut = useSignOut();
  const [confirming, setConfirming] = useState(false);
  const [returnFocus, setReturnFocus] = useState(false);
  const signOutNow = () => signOut.mutate();
  const start = () => {
    setReturnFocus(false);
    if (isInFrame()) setConfirming(true);
    else signOutNow();
  };
  const early = usePressBeforeHydration(start);
  return {
    confirming,
    returnFocus,
    /** Signing out, or signed out and leaving: nothing more to press. */
    busy: signOut.isPending || signOut.isSuccess,
    pending: signOut.isPending,
    error: signOut.error,
    start,
    early,
    // Inside the site's page the press only leads to the question.
    earlyNotice: embedded ? messages.shell.continuesOnceLoaded : messages.accountMenu.signsOutOnceLoaded,
    confirm: signOutNow,
    cancel: () => {
      setConfirming(false);
      setReturnFocus(true);
    },
    reset: () => {
      setConfirming(false);
      setReturnFocus(false);
    },
  };
}

/** A callback ref: focuses its element when it is put in the page (the Sign out button after Cancel). */
export function focusOnMount(element: HTMLElement | null): void {
  element?.focus();
}

/**
 * "Sign out of the dashboard in this panel?", shown in place of the Sign out button that asked it. Its
 * question takes focus when it appears (the button that had focus is gone).
 *
 * "Yes, sign out" is armed as the revoke confirmation is (lib/client/deliberate-click.ts): it does nothing
 * until the page has been in view, with focus, for ARMING_DELAY_MS, so a double-click staged in another
 * window, whose second click lands here as the confirmation appears, cannot sign the member out
 * (double-clickjacking; OWASP Clickjacking Defense Cheat Sheet; ASVS 5 V3.4.6). Meanwhile the button keeps
 * its normal look (aria-disabled, not faded): a press in that moment signs nothing out and says so.
 */
export function FrameSignOutConfirmation({ busy, onConfirm, onCancel }: { busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { messages } = useI18n();
  const { armed, isArmedNow } = useDeliberateClick();
  const [tooSoon, setTooSoon] = useState(false);
  const titleId = useId();
  const title = useRef<HTMLParagraphElement>(null);
  // Shown only in answer to a press of Sign out, which it replaced: focus starts at the question.
  useEffect(() => {
    title.current?.focus();
  }, []);

  function confirm() {
    if (!isArmedNow()) {
      setTooSoon(true);
      return;
    }
    setTooSoon(false);
    onConfirm();
  }

  return (
    <div role="group" aria-labelledby={titleId} className="flex flex-col gap-2 rounded-lg border border-line p-3">
      <p id={titleId} ref={title} tabIndex={-1} className="font-medium text-fg outline-none">
        {messages.sessions.signOutConfirmTitle}
      </p>
      <p role="status" className="text-sm text-fg empty:sr-only">
        {tooSoon && !busy ? messages.sessions.signOutTooSoon : null}
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn btn-danger" disabled={busy} aria-disabled={armed ? undefined : true} onClick={confirm}>
          {messages.sessions.signOutConfirm}
        </button>
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={onCancel}>
          {messages.sessions.signOutCancel}
        </button>
      </div>
    </div>
  );
}
