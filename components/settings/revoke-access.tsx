"use client";

import { useEffect, useRef, useState } from "react";
import { leaveForSignedOutPage } from "@/lib/client/api";
import { useRevokeAccess } from "@/lib/client/hooks";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import { useErrorReason } from "@/components/ui/error-panel";

/**
 * "Revoke access" with an inline confirmation step. Confirming calls POST /api/auth/revoke; on success
 * the browser leaves for the signed-out page (a full navigation, so no private state survives).
 */
export function RevokeAccess() {
  const { messages } = useI18n();
  const revoke = useRevokeAccess();
  const [confirming, setConfirming] = useState(false);
  const confirmHeading = useRef<HTMLHeadingElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const { reason } = useErrorReason(revoke.error);

  useEffect(() => {
    if (confirming) confirmHeading.current?.focus();
    else if (returnFocus.current) {
      openButton.current?.focus();
      returnFocus.current = false;
    }
  }, [confirming]);

  function cancel() {
    returnFocus.current = true;
    revoke.reset();
    setConfirming(false);
  }

  function confirm() {
    revoke.mutate(undefined, { onSuccess: () => leaveForSignedOutPage("revoked") });
  }

  return (
    <div className="flex flex-col items-start gap-3">
      <p className="text-fg-muted">{messages.settings.revokeBody}</p>
      {confirming ? (
        <div
          role="group"
          aria-labelledby="revoke-confirm-title"
          aria-describedby="revoke-confirm-body"
          className="w-full rounded-xl border-2 border-danger-fg bg-danger-bg p-4"
        >
          <h3 id="revoke-confirm-title" ref={confirmHeading} tabIndex={-1} className="font-semibold text-fg">
            {messages.settings.revokeConfirmTitle}
          </h3>
          <p id="revoke-confirm-body" className="mt-1 text-fg">
            {messages.settings.revokeConfirmBody}
          </p>
          {revoke.isError ? (
            <p role="alert" className="mt-2 font-medium text-danger-fg">
              {interpolate(messages.settings.revokeFailed, { reason })}
            </p>
          ) : null}
          <div className="mt-4 flex flex-col gap-2 sm:flex-row">
            <button
              type="button"
              className="btn btn-danger"
              onClick={confirm}
              disabled={revoke.isPending || revoke.isSuccess}
              aria-busy={revoke.isPending}
            >
              {revoke.isPending || revoke.isSuccess ? messages.settings.revoking : messages.settings.revokeConfirm}
            </button>
            <button type="button" className="btn btn-secondary" onClick={cancel} disabled={revoke.isPending || revoke.isSuccess}>
              {messages.settings.revokeCancel}
            </button>
          </div>
        </div>
      ) : (
        <button ref={openButton} type="button" className="btn btn-danger" onClick={() => setConfirming(true)}>
          {messages.settings.revoke}
        </button>
      )}
    </div>
  );
}
