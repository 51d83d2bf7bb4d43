"use client";

import { useId, useState } from "react";

import { useArmedAfterAppearing } from "@/lib/client/deliberate-click";
import { isInFrame } from "@/lib/client/embedding";
import { leaveAfterSignOut } from "@/lib/client/sign-out";
import { useSignOut } from "@/lib/client/hooks";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import { useErrorReason } from "@/components/ui/error-panel";

/**
 * Signs out (the site revokes this sign-in; the member's consent stays) and leaves for the signed-out page.
 * Inside the site's page (a frame the site controls) it asks first, and the confirmation cannot be clicked
 * through (OWASP ASVS 5 V3.4.6: destructive actions inside a frame need confirmation).
 */
export function SignOutButton() {
  const { messages } = useI18n();
  const signOut = useSignOut();
  const { reason } = useErrorReason(signOut.error);
  const [confirming, setConfirming] = useState(false);
  const busy = signOut.isPending || signOut.isSuccess;
  const signOutNow = () => signOut.mutate(undefined, { onSuccess: leaveAfterSignOut });
  return (
    <div className="flex flex-col items-start gap-2">
      <p className="text-fg-muted">{messages.settings.signOutBody}</p>
      {confirming ? (
        <FrameSignOutConfirmation busy={busy} onConfirm={signOutNow} onCancel={() => setConfirming(false)} />
      ) : (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy}
          aria-busy={signOut.isPending}
          onClick={() => (isInFrame() ? setConfirming(true) : signOutNow())}
        >
          {messages.settings.signOut}
        </button>
      )}
      {signOut.isError ? (
        <p role="alert" className="text-sm font-medium text-danger-fg">
          {interpolate(messages.settings.signOutFailed, { reason })}
        </p>
      ) : null}
    </div>
  );
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
