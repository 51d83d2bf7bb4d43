"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";

import { notifyOpener, REVOKE_CONFIRMED_MESSAGE } from "@/lib/client/embedding";
import { useDeliberateClick } from "@/lib/client/deliberate-click";
import { useRevokeAccess } from "@/lib/client/hooks";
import { returnFocusTo, useFocusOnArrival } from "@/lib/client/return-focus";
import { SETTINGS_WORDS } from "@/lib/i18n/messages/settings";
import { useWords } from "@/lib/i18n/provider";
import { ActionFailedAlert } from "@/components/ui/action-failed-alert";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { REVOKE_BUTTON } from "./revoke-access";

/**
 * The confirmation page. In the dashboard's own tab it revokes directly. Opened as a popup by the
 * embedded dashboard (`fromFrame`), it only reports the member's decision to that frame.
 */
export function RevokeConfirmation({ fromFrame }: { fromFrame: boolean }) {
  const words = useWords(SETTINGS_WORDS);
  const revoke = useRevokeAccess();
  const [noOpener, setNoOpener] = useState(false);
  const [tooSoon, setTooSoon] = useState(false);
  const router = useRouter();
  const heading = useRef<HTMLHeadingElement>(null);
  // The button that opened this page is gone: focus starts at the question, for keyboards and screen readers.
  useFocusOnArrival(heading);
  // Opened or raised under the pointer by another window, this page does not take that click
  // (double-clickjacking, lib/client/deliberate-click.ts). The button keeps its normal look meanwhile (it
  // is aria-disabled, not faded): a press in that moment revokes nothing and says so, and a press
  // after it works. A person reads the question for longer than that; a staged double-click does not.
  const { armed, isArmedNow } = useDeliberateClick();

  function confirm() {
    if (!isArmedNow()) {
      setTooSoon(true);
      return;
    }
    setTooSoon(false);
    if (fromFrame) {
      if (notifyOpener({ type: REVOKE_CONFIRMED_MESSAGE })) window.close();
      else setNoOpener(true);
      return;
    }
    revoke.mutate();
  }

  function cancel() {
    if (fromFrame) window.close();
    else {
      returnFocusTo(REVOKE_BUTTON);
      router.push(PAGE_PATHS.settings);
    }
  }

  const busy = revoke.isPending || revoke.isSuccess;
  return (
    <section
      aria-labelledby="revoke-confirm-title"
      className="mx-auto flex max-w-xl flex-col items-start gap-4 rounded-xl border-2 border-danger-fg bg-danger-bg p-5"
    >
      <h1 id="revoke-confirm-title" ref={heading} tabIndex={-1} className="text-2xl font-semibold text-fg outline-none">
        {words.revokeConfirmTitle}
      </h1>
      <p className="text-fg">{words.revokeConfirmBody}</p>
      <ActionFailedAlert error={revoke.error} message={words.revokeFailed} />
      {noOpener ? <p role="alert">{words.revokeNoOpener}</p> : null}
      <p role="status" className="text-sm text-fg empty:sr-only">
        {tooSoon && !busy ? words.revokeTooSoon : null}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button
          type="button"
          className="btn btn-danger"
          onClick={confirm}
          disabled={busy}
          aria-disabled={armed ? undefined : true}
          aria-busy={revoke.isPending}
        >
          {busy ? words.revoking : words.revokeConfirm}
        </button>
        <button type="button" className="btn btn-secondary" onClick={cancel} disabled={busy}>
          {words.revokeCancel}
        </button>
      </div>
    </section>
  );
}
