"use client";

import { useId, useState } from "react";

import { useArmedAfterAppearing } from "@/lib/client/deliberate-click";
import { isInFrame } from "@/lib/client/embedding";
import { useSignOut } from "@/lib/client/hooks";
import { useI18n } from "@/lib/i18n/provider";
import { ActionFailedAlert } from "@/components/ui/action-failed-alert";

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
        <button type="button" className="btn btn-secondary" disabled={signOut.busy} aria-busy={signOut.pending} onClick={signOut.start}>
          {messages.accountMenu.signOut}
        </button>
      )}
      <ActionFailedAlert error={signOut.error} message={messages.accountMenu.signOutFailed} className="text-sm" />
    </div>
  );
}

/**
 * Sign out as Settings and the header's account menu offer it: at the top level `start` signs out at once;
 * inside the site's page it only asks (`confirming`), and FrameSignOutConfirmation's `confirm` signs out.
 */
export function useSignOutFlow() {
  const signOut = useSignOut();
  const [confirming, setConfirming] = useState(false);
  const signOutNow = () => signOut.mutate();
  return {
    confirming,
    /** Signing out, or signed out and leaving: nothing more to press. */
    busy: signOut.isPending || signOut.isSuccess,
    pending: signOut.isPending,
    error: signOut.error,
    start: () => (isInFrame() ? setConfirming(true) : signOutNow()),
    confirm: signOutNow,
    cancel: () => setConfirming(false),
  };
}

/** "Sign out here?" with a confirm button that stays inert until the page has been in view (lib/client/deliberate-click.ts). */
export function FrameSignOutConfirmation({ busy, onConfirm, onCancel }: { busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { messages } = useI18n();
  const armed = useArmedAfterAppearing();
  const titleId = useId();
  return (
    <div role="group" aria-labelledby={titleId} className="flex flex-col gap-2 rounded-lg border border-line p-3">
      <p id={titleId} className="font-medium text-fg">
        {messages.sessions.signOutConfirmTitle}
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn btn-danger" disabled={busy || !armed} onClick={onConfirm}>
          {messages.sessions.signOutConfirm}
        </button>
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={onCancel}>
          {messages.sessions.signOutCancel}
        </button>
      </div>
    </div>
  );
}
