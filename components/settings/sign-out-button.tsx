"use client";

import { leaveAfterSignOut } from "@/lib/client/sign-out";
import { useSignOut } from "@/lib/client/hooks";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import { useErrorReason } from "@/components/ui/error-panel";

/** Signs out (the site revokes this sign-in; the member's consent stays) and leaves for the signed-out page. */
export function SignOutButton() {
  const { messages } = useI18n();
  const signOut = useSignOut();
  const { reason } = useErrorReason(signOut.error);
  return (
    <div className="flex flex-col items-start gap-2">
      <p className="text-fg-muted">{messages.settings.signOutBody}</p>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={signOut.isPending || signOut.isSuccess}
        aria-busy={signOut.isPending}
        onClick={() => signOut.mutate(undefined, { onSuccess: leaveAfterSignOut })}
      >
        {messages.settings.signOut}
      </button>
      {signOut.isError ? (
        <p role="alert" className="text-sm font-medium text-danger-fg">
          {interpolate(messages.settings.signOutFailed, { reason })}
        </p>
      ) : null}
    </div>
  );
}
