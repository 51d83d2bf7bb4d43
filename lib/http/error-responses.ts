import "server-only";

import { NextResponse } from "next/server";

import { AuthError } from "@/lib/auth/errors";
import { LayerError } from "@/lib/errors/layer-error";
import { logEvent, type LogEventName } from "@/lib/log/logger";
import { siteFailureDetails } from "@/lib/site/failure-details";
import { siteRetryAfterSeconds, unavailableForSeconds } from "@/lib/site/site-busy";
import { siteFailureOf } from "@/lib/site/site-call-policy";
import { SITE_BUSY, type ApiErrorBody, type PublicError, type PublicErrorCode } from "@/lib/contract/errors";
import { isSharedStateUnavailable, SessionError } from "@/lib/session/errors";
import { SiteError } from "@/lib/site/errors";

import { RequestBodyTooLargeError } from "./capped-body";
import { RequestError } from "./request-errors";

/** Seconds a client should wait before retrying while the shared state (Redis) does not answer. */
export const SHARED_STATE_RETRY_AFTER_SECONDS = 2;

/** The one mapping from an error to a JSON answer of the BFF's API routes. Never a stack trace. */
export function apiErrorResponse(error: unknown): NextResponse<ApiErrorBody> {
  const { status, code, message, detail, retryAfterSeconds } = describeApiError(error);
  logFailure(error, code);
  const headers: Record<string, string> = { "cache-control": "no-store" };
  // RFC 9110 section 10.2.3: a 503 says when to come back.
  if (code === "temporarily_unavailable") headers["retry-after"] = String(SHARED_STATE_RETRY_AFTER_SECONDS);
  if (retryAfterSeconds !== undefined) headers["retry-after"] = String(retryAfterSeconds);
  return NextResponse.json({ error: { code, message, ...optionalFields(detail, retryAfterSeconds) } }, { status, headers });
}

function optionalFields(
  detail: string | undefined,
  retryAfterSeconds: number | undefined,
): Pick<PublicError, "detail" | "retryAfterSeconds"> {
  return { ...(detail ? { detail } : {}), ...waitOf(retryAfterSeconds) };
}

/** The wait to repeat, as a field that is there only when there is one. */
function waitOf(retryAfterSeconds: number | undefined): Pick<PublicError, "retryAfterSeconds"> {
  return retryAfterSeconds === undefined ? {} : { retryAfterSeconds };
}

/**
 * What the browser is told of a failure, as plain data, logged as the API routes log it: a page's server
 * prefetch rejects with it (app/_lib/prefetch-account-page.ts), so the server's error never leaves the server.
 */
export function publicErrorOf(error: unknown): PublicError {
  const { status, code, message, detail, retryAfterSeconds } = describeApiError(error);
  logFailure(error, code);
  return { status, code, message, ...optionalFields(detail, retryAfterSeconds) };
}

/** An error as the BFF tells it: HTTP status, public code, our own message, a safe detail. */
export interface DescribedApiError {
  status: number;
  code: PublicErrorCode;
  message: string;
  detail?: string;
  /**
   * How many seconds to wait before asking again: the site's, when it said (site_busy, or a 503's for
   * site_unavailable and refresh_unavailable), or our own limit's (rate_limited).
   */
  retryAfterSeconds?: number;
}

/**
 * The one mapping from an error to what the browser is told (the API routes' JSON, a page's prefetch):
 * each layer's error type (SessionError, SiteError, AuthError) by its code, the site's own failures
 * (timeout, too large) whoever raised them, and anything else as "unexpected".
 */
export function describeApiError(error: unknown): DescribedApiError {
  // By its code: the shared state may throw another bundle's SessionError class (lib/session/errors.ts).
  if (isSharedStateUnavailable(error)) return TEMPORARILY_UNAVAILABLE;
  if (error instanceof RequestBodyTooLargeError) {
    return { status: 413, code: "body_too_large", message: `The request is too large (at most ${error.maxBytes} bytes).` };
  }
  // Whoever raised it (Account API, token refresh, the page view's deadline), a site that did not
  // answer in time or answered too much is told as such.
  const failure = siteFailureOf(error);
  if (failure?.code === "timeout") {
    return { status: 504, code: "site_timeout", message: "The site did not answer in time. Please try again." };
  }
  if (failure?.code === "too_large") {
    return { status: 502, code: "answer_too_large", message: "The site's answer was larger than the dashboard reads." };
  }
  if (error instanceof RequestError) return describeRequestError(error);
  if (error instanceof SessionError) return describeSessionError(error);
  if (error instanceof SiteError) return describeSiteError(error);
  if (error instanceof AuthError) return describeAuthError(error);
  return { status: 500, code: "unexpected", message: "Something went wrong on our side. Please try again." };
}

/** Fail closed (docs/architecture.md section 8): not "signed out", the member's cookie is kept; try again shortly. */
const TEMPORARILY_UNAVAILABLE: DescribedApiError = {
  status: 503,
  code: "temporarily_unavailable",
  message: "The dashboard is temporarily unavailable. Please try again in a moment.",
};
const SIGN_IN_AGAIN: DescribedApiError = { status: 401, code: "unauthenticated", message: "Please sign in again." };
const ACCESS_WITHDRAWN: DescribedApiError = {
  status: 401,
  code: "unauthenticated",
  message: "The site withdrew this app's access to your account. Please sign in again.",
  detail: "access_withdrawn",
};
// Whether the site could not be reached or answered with a server error (5xx): both are "not available".
const SITE_NOT_AVAILABLE = "The site is not available right now. Please try again in a moment.";
/**
 * The site limits how often it answers (SITE_BUSY): the member is told to wait, for as long as the site
 * asked when it said (RFC 9110 section 10.2.3), and the answer repeats that wait in `Retry-After`.
 */
function siteBusy(error: unknown): DescribedApiError {
  return {
    status: 503,
    code: "site_busy",
    message: "The site is busy right now. Please try again in a moment.",
    ...waitOf(siteRetryAfterSeconds(error)),
  };
}
/** The site is not available (unreachable or 5xx): with the wait a 503 named, when it named one. */
function siteUnavailable(error: unknown, code: "site_unavailable" | "refresh_unavailable"): DescribedApiError {
  return { status: 503, code, message: SITE_NOT_AVAILABLE, ...waitOf(unavailableForSeconds(error)) };
}
const SITE_MISCONFIGURED: DescribedApiError = {
  status: 502,
  code: "site_misconfigured",
  message: "The dashboard is not configured correctly for this site. Please tell the site's operator.",
};

function describeRequestError(error: RequestError): DescribedApiError {
  switch (error.code) {
    case "not_found":
      return { status: 404, code: "not_found", message: "There is no such account page." };
    case "invalid_session_choice":
      return {
        status: 400,
        code: "invalid_request",
        message: 'The request names no sign-in to end: send {"id": "…"} for one, or {"others": true} for every other one.',
      };
    case "invalid_handoff_request":
      return {
        status: 400,
        code: "invalid_request",
        message: 'The request carries no sign-in handoff: send {"code": "…", "verifier": "…"} as JSON.',
      };
    case "invalid_cursor":
      return {
        status: 400,
        code: "invalid_cursor",
        message: "This list's page cursor is not one the dashboard gave out for it. Load the list again from the start.",
      };
  }
}

function describeSessionError(error: SessionError): DescribedApiError {
  switch (error.code) {
    case "unauthenticated":
      // The site refused the refresh (400 or 401): the browser leaves for the signed-out page that says so.
      return error.detail === "access_withdrawn" ? ACCESS_WITHDRAWN : SIGN_IN_AGAIN;
    case "shared_state_unavailable":
      return TEMPORARILY_UNAVAILABLE;
  }
}

function describeSiteError(error: SiteError): DescribedApiError {
  switch (error.code) {
    case "token_refused":
      // Where no refresh can follow (a page's prefetch, a retried call), a refused token means sign in again.
      return SIGN_IN_AGAIN;
    case "insufficient_scope":
      return {
        status: 403,
        code: "insufficient_scope",
        message: "You have not granted the permission this page needs.",
        detail: error.detail,
      };
    case "account_api_failed":
      if (error.detail === SITE_BUSY) return siteBusy(error);
      // The site answered, but refused the query or answered in another form than it asks for.
      return error.detail === "graphql_error" || error.detail === "unexpected_answer"
        ? { status: 502, code: "query_failed", message: "The site could not answer this request." }
        : siteUnavailable(error, "site_unavailable");
    case "token_audience_mismatch":
      return SITE_MISCONFIGURED;
  }
}

function describeAuthError(error: AuthError): DescribedApiError {
  switch (error.code) {
    case "session_ended":
      return SIGN_IN_AGAIN;
    case "csrf_rejected":
      return { status: 403, code: "csrf_rejected", message: "This request did not come from the dashboard." };
    case "session_not_found":
      return { status: 404, code: "not_found", message: "That session has already ended." };
    case "rate_limited":
      return {
        status: 429,
        code: "rate_limited",
        message: "Too many attempts. Please wait a moment and try again.",
        detail: error.detail,
        ...waitOf(error.retryAfterSeconds),
      };
    case "refresh_unavailable":
      return error.detail === SITE_BUSY ? siteBusy(error) : siteUnavailable(error, "refresh_unavailable");
    case "site_unavailable":
    case "revocation_unavailable":
      return { status: 503, code: error.code, message: SITE_NOT_AVAILABLE };
    case "revocation_refused":
      return {
        status: 502,
        code: "revocation_refused",
        message: "The site refused to revoke access because the dashboard is not configured correctly for it. You are signed out here.",
        detail: error.detail,
      };
    case "site_misconfigured":
      return SITE_MISCONFIGURED;
    case "authorization_denied":
    case "authorization_failed":
    case "callback_replayed":
    case "id_token_invalid":
    case "issuer_mismatch":
    case "login_expired":
    case "login_state_mismatch":
    case "token_exchange_failed":
    case "userinfo_mismatch":
    case "scope_not_granted":
    case "pushed_request_failed":
    case "sign_in_too_large":
      // Sign-in failures end on the sign-in problem page. Only the embedded handoff's route raises two of
      // them (login_expired, login_state_mismatch), and its frame reads the status alone.
      return { status: 400, code: error.code, message: "This request could not be completed." };
  }
}

const QUIET_CODES: ReadonlySet<string> = new Set([
  "unauthenticated",
  "temporarily_unavailable",
  "not_found",
  "invalid_cursor",
  "invalid_request",
  "body_too_large",
]);

/** The event of a failure whose code is not a site failure. */
const EVENT_OF_CODE: Partial<Record<string, LogEventName>> = {
  unexpected: "unexpected_error",
  csrf_rejected: "csrf_refused",
  rate_limited: "rate_limited",
  // The embedded frame's handoff is the end of a sign-in: an unknown code or another frame's secret fails it.
  login_expired: "sign_in_failed",
  login_state_mismatch: "sign_in_failed",
};

/**
 * Logs the reason without tokens or secrets: our stable code and our own message, the error class of the
 * cause and, for a site failure, what the site said (endpoint or GraphQL operation, status, its error
 * code and message, cut short).
 */
export function logFailure(error: unknown, code: string, event: LogEventName = EVENT_OF_CODE[code] ?? "site_error"): void {
  // Nothing to tell an operator: the request line says it; a shared state outage is logged where it happens.
  if (QUIET_CODES.has(code)) return;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.name : undefined;
  // A layer's error speaks our own words and carries a safe detail; anything else is named by its class only.
  const own = error instanceof LayerError;
  const message = own ? error.message : error instanceof Error ? error.name : "unknown error";
  const detail = own ? error.detail : undefined;
  logEvent(event, { errorCode: code, detail, message, cause, ...siteFailureDetails(error) }, "warn");
}
