"use client";

import { usePathname } from "next/navigation";
import { asApiError, errorKindOf, type ApiErrorKind } from "@/lib/client/api";
import { loginPath } from "@/lib/contract/paths";
import { useI18n } from "@/lib/i18n/provider";
import { describeScope, interpolate, type Messages } from "@/lib/i18n";

function reasonText(kind: ApiErrorKind, messages: Messages, error: unknown): string {
  switch (kind) {
    case "unauthenticated":
      return messages.errors.unauthenticated;
    case "insufficient_scope": {
      // Name the missing permission when the site said which one it is.
      const scope = asApiError(error)?.detail;
      return scope
        ? interpolate(messages.errors.insufficientScopeNamed, { permission: describeScope(scope, messages), scope })
        : messages.errors.insufficientScope;
    }
    case "temporarily_unavailable":
      return messages.errors.temporarilyUnavailable;
    case "site_unavailable":
      return messages.errors.siteUnavailable;
    case "site_timeout":
      return messages.errors.siteTimeout;
    case "query_failed":
      return messages.errors.queryFailed;
    case "answer_too_large":
      return messages.errors.answerTooLarge;
    case "site_misconfigured":
      return messages.errors.siteMisconfigured;
    case "request_refused":
      return messages.errors.requestRefused;
    case "sign_in_failed":
      return messages.errors.signInFailed;
    case "network":
      return messages.errors.network;
    case "unknown":
      return messages.errors.unknown;
  }
}

/** The reason a BFF call failed, in the member's language. */
export function useErrorReason(error: unknown): { kind: ApiErrorKind; reason: string } {
  const { messages } = useI18n();
  const kind = errorKindOf(error);
  return { kind, reason: reasonText(kind, messages, error) };
}

/**
 * A specific error for one page or section, with Retry. An expired session shows where the member is
 * being taken instead (the fetcher already started the redirect), with a Sign in link as a fallback.
 */
export function ErrorPanel({
  title,
  error,
  onRetry,
  retrying = false,
}: {
  /** What failed, e.g. "Your courses could not be loaded." */
  title: string;
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
}) {
  const { messages } = useI18n();
  const { kind, reason } = useErrorReason(error);
  const pathname = usePathname();
  return (
    <div role="alert" className="card border-danger-fg/40 flex flex-col items-start gap-3 p-5 sm:p-6">
      <p className="font-semibold text-danger-fg">{title}</p>
      <p className="text-fg">{reason}</p>
      {kind === "unauthenticated" || kind === "insufficient_scope" ? (
        <a className="btn btn-primary" href={loginPath(pathname ?? "/")}>
          {kind === "insufficient_scope" ? messages.errors.signInAgain : messages.landing.signIn}
        </a>
      ) : (
        <button type="button" className="btn btn-secondary" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
          {messages.errors.retry}
        </button>
      )}
    </div>
  );
}
