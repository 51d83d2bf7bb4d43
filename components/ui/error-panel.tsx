"use client";

import { usePathname } from "next/navigation";
import { asApiError, errorKindOf, type ApiErrorKind } from "@/lib/client/api";
import { loginPath } from "@/lib/contract/paths";
import { useI18n } from "@/lib/i18n/provider";
import { RetryButton, type RetryAction } from "./retry-button";
import { describeScope, inTimeFromNow, interpolate, type Messages } from "@/lib/i18n";
import type { Locale } from "@/lib/i18n/locales";

/** The words of each error kind; the missing permission is named apart (reasonText). */
const REASON_OF_KIND = {
  unauthenticated: "unauthenticated",
  insufficient_scope: "insufficientScope",
  temporarily_unavailable: "temporarilyUnavailable",
  site_unavailable: "siteUnavailable",
  site_busy: "siteBusy",
  site_timeout: "siteTimeout",
  query_failed: "queryFailed",
  answer_too_large: "answerTooLarge",
  site_misconfigured: "siteMisconfigured",
  request_refused: "requestRefused",
  rate_limited: "rateLimited",
  sign_in_failed: "signInFailed",
  network: "network",
  unknown: "unknown",
} as const satisfies Record<ApiErrorKind, keyof Messages["errors"]>;

/** The words of each kind that may name how long to wait ("Please try again in 30 seconds"). */
const WAIT_WORDS_OF_KIND = {
  site_busy: "siteBusyFor",
  rate_limited: "rateLimitedFor",
  site_unavailable: "siteUnavailableFor",
} as const satisfies Partial<Record<ApiErrorKind, keyof Messages["errors"]>>;

function isWaitKind(kind: ApiErrorKind): kind is keyof typeof WAIT_WORDS_OF_KIND {
  return Object.hasOwn(WAIT_WORDS_OF_KIND, kind);
}

function reasonText(kind: ApiErrorKind, messages: Messages, locale: Locale, error: unknown): string {
  // Name the missing permission when the site said which one it is.
  const scope = kind === "insufficient_scope" ? asApiError(error)?.detail : undefined;
  if (scope) return interpolate(messages.errors.insufficientScopeNamed, { permission: describeScope(scope, messages), scope });
  // Name the wait when the site (or our own limit) said how long it is.
  const wait = isWaitKind(kind) ? asApiError(error)?.retryAfterSeconds : undefined;
  if (isWaitKind(kind) && wait !== undefined) {
    return interpolate(messages.errors[WAIT_WORDS_OF_KIND[kind]], { when: inTimeFromNow(wait, locale) });
  }
  return messages.errors[REASON_OF_KIND[kind]];
}

/** The reason a BFF call failed, in the member's language. */
export function useErrorReason(error: unknown): { kind: ApiErrorKind; reason: string } {
  const { messages, locale } = useI18n();
  const kind = errorKindOf(error);
  return { kind, reason: reasonText(kind, messages, locale, error) };
}

/**
 * A specific error for one page or section, with Retry. An expired session shows where the member is
 * being taken instead (the fetcher already started the redirect), with a Sign in link as a fallback.
 *
 * A page whose data the server could not get shows this in its first HTML; its Retry works before the page
 * is interactive too (RetryButton).
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
} & RetryAction) {
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
        <RetryButton onRetry={onRetry} retrying={retrying} />
      )}
    </div>
  );
}
