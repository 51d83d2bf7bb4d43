import { CSRF_HEADER, CSRF_HEADER_VALUE } from "@/lib/contract/csrf";
import { isPublicErrorCode, type ApiErrorBody, type PublicError, type PublicErrorCode } from "@/lib/contract/errors";
import { loginPath, signedOutPath, type SignedOutReason } from "@/lib/contract/paths";

import { isInFrame } from "./embedding";

/** Why a BFF call failed, in the terms the UI explains it. */
export type ApiErrorKind =
  | "unauthenticated"
  | "insufficient_scope"
  /** The dashboard's shared state did not answer: the member is still signed in (503 with Retry-After). */
  | "temporarily_unavailable"
  /** The site could not be reached or answered 5xx. */
  | "site_unavailable"
  /** The site limits how often it answers: try again after the wait it named (`retryAfterSeconds`). */
  | "site_busy"
  /** The site did not answer within the page view's time. */
  | "site_timeout"
  /** The site answered, but refused this request (GraphQL errors, a field it lacks). */
  | "query_failed"
  /** The site answered more than the dashboard reads. */
  | "answer_too_large"
  /** The dashboard is not configured for this site: only the operator can fix it. */
  | "site_misconfigured"
  /** The request did not come from the dashboard's own page (or the page is stale). */
  | "request_refused"
  /** Too many attempts from this network or browser: try again after `retryAfterSeconds`. */
  | "rate_limited"
  /** Sign-in could not be completed. */
  | "sign_in_failed"
  | "network"
  | "unknown";

/** The kind of every public code the BFF sends (lib/contract/errors.ts PUBLIC_ERROR_CODES). */
const KIND_BY_CODE: Readonly<Record<PublicErrorCode, ApiErrorKind>> = {
  unauthenticated: "unauthenticated",
  insufficient_scope: "insufficient_scope",
  csrf_rejected: "request_refused",
  refresh_unavailable: "site_unavailable",
  site_unavailable: "site_unavailable",
  revocation_unavailable: "site_unavailable",
  revocation_refused: "site_misconfigured",
  body_too_large: "request_refused",
  site_timeout: "site_timeout",
  query_failed: "query_failed",
  answer_too_large: "answer_too_large",
  site_misconfigured: "site_misconfigured",
  authorization_denied: "sign_in_failed",
  authorization_failed: "sign_in_failed",
  callback_replayed: "sign_in_failed",
  id_token_invalid: "sign_in_failed",
  issuer_mismatch: "sign_in_failed",
  login_expired: "sign_in_failed",
  login_state_mismatch: "sign_in_failed",
  token_exchange_failed: "sign_in_failed",
  userinfo_mismatch: "sign_in_failed",
  not_found: "request_refused",
  invalid_cursor: "request_refused",
  invalid_request: "request_refused",
  temporarily_unavailable: "temporarily_unavailable",
  unexpected: "unknown",
  scope_not_granted: "sign_in_failed",
  pushed_request_failed: "sign_in_failed",
  sign_in_too_large: "sign_in_failed",
  rate_limited: "rate_limited",
  site_busy: "site_busy",
};

/** A failed BFF call: the HTTP status (0 when the network failed), the BFF's stable code and message. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** A machine-readable detail from the BFF, e.g. the permission (scope) a 403 names. */
    readonly detail?: string,
    /** How many seconds to wait before asking again: the site's, when it said (site_busy), or our own limit's (rate_limited). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  get kind(): ApiErrorKind {
    if (this.status === 0) return "network";
    if (isPublicErrorCode(this.code)) return KIND_BY_CODE[this.code];
    // An answer that is not the BFF's own (a proxy in between): judged by its status.
    if (this.status === 401) return "unauthenticated";
    if (this.status === 504) return "site_timeout";
    if (this.status === 502 || this.status === 503) return "site_unavailable";
    return "unknown";
  }

  /** What the server hands the browser in a page's prefetched state (an Error does not survive serialisation). */
  toJSON(): PublicError {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.detail === undefined ? {} : { detail: this.detail }),
      ...(this.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: this.retryAfterSeconds }),
    };
  }
}

/** The ApiError behind anything a query holds as its error: an ApiError, or one serialised by the server. */
export function asApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (typeof error !== "object" || error === null) return undefined;
  const { status, code, message, detail, retryAfterSeconds } = error as Partial<Record<keyof PublicError, unknown>>;
  if (typeof status !== "number" || typeof code !== "string") return undefined;
  return new ApiError(status, code, typeof message === "string" ? message : "", stringOrNothing(detail), waitOrNothing(retryAfterSeconds));
}

function stringOrNothing(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A wait in whole seconds, as the BFF sends it (lib/site/site-busy.ts bounds it); anything else is no wait. */
function waitOrNothing(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** The error kind of anything a query threw. */
export function errorKindOf(error: unknown): ApiErrorKind {
  return asApiError(error)?.kind ?? "unknown";
}

function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const { error } = value;
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "string";
}

/**
 * How this page has begun to leave, if it has: for sign-in, for the signed-out page, or because it ended the
 * session itself (Sign out, Revoke access), the BFF has answered and the page navigates where the answer
 * says. A query answering 401 afterwards (the session just ended) must not call `location.assign`, which
 * would cancel the navigation under way and send a member who signed out to the site's sign-in page.
 */
let leaving: "no" | "for_sign_in" | "for_signed_out_page" | "session_ended_here" = "no";

/** This page ended the session (the BFF answered Sign out or Revoke access): a 401 is expected now, and the page navigates itself. */
export function sessionEndedHere(): void {
  leaving = "session_ended_here";
}

/** Sends the browser to sign in and back to the page it is on. Runs once even when several queries fail. */
export function redirectToSignIn(): void {
  if (typeof window === "undefined" || leaving !== "no") return;
  leaving = "for_sign_in";
  const here = `${window.location.pathname}${window.location.search}`;
  // Inside the site's page, reloading shows the embedded sign-in (the site's sign-in page is never framed).
  if (isInFrame()) window.location.reload();
  else window.location.assign(loginPath(here));
}

/**
 * The site withdrew the app's access: the signed-out page says so, and Sign in again there leads back to the
 * page the member was on (the signed-out page sanitizes it again). It takes over from a sign-in another
 * query's plain 401 began (that 401 came from the session this refusal ended), never from where a Sign out
 * or Revoke access of this page is going.
 */
function leaveForAccessWithdrawn(): void {
  if (leaving !== "no" && leaving !== "for_sign_in") return;
  leaving = "for_signed_out_page";
  leaveForSignedOutPage("access_withdrawn", `${window.location.pathname}${window.location.search}`);
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (isApiErrorBody(body)) {
    const { code, message, detail, retryAfterSeconds } = body.error;
    return new ApiError(
      response.status,
      code,
      typeof message === "string" ? message : "",
      stringOrNothing(detail),
      waitOrNothing(retryAfterSeconds),
    );
  }
  return new ApiError(response.status, `http_${response.status}`, response.statusText);
}

/** The error of a request that never reached the dashboard (the member's network, or the browser offline). */
export function unreachable(message: string): ApiError {
  return new ApiError(0, "network_error", message);
}

async function send(input: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (cause) {
    throw unreachable(cause instanceof Error ? cause.message : "Network request failed");
  }
}

/**
 * GETs a BFF route and returns its JSON. A 401 sends the browser to sign in (and back) before throwing,
 * so the page never shows stale private data (leavingWhenSignedOut).
 */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await send(path, {
    method: "GET",
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    cache: "no-store",
    signal,
  });
  if (!response.ok) throw leavingWhenSignedOut(await toApiError(response));
  return (await response.json()) as T;
}

/**
 * A 401 means the session is gone (ended elsewhere, or expired): the page leaves, as its words say
 * ("Taking you to sign in…"), for sign-in and back; or, when the site withdrew the app's access, for the
 * signed-out page, which says so. Returns the error, for the caller to throw.
 */
function leavingWhenSignedOut(error: ApiError): ApiError {
  if (error.kind === "unauthenticated" && error.detail === "access_withdrawn") leaveForAccessWithdrawn();
  else if (error.kind === "unauthenticated") redirectToSignIn();
  return error;
}

/**
 * POSTs to a state-changing BFF route with the custom header and same-origin credentials. A 401 (Revoke
 * access or "Sign out there" after the session ended elsewhere) leaves the page as a GET's does.
 */
export async function postAction(path: string): Promise<unknown> {
  const response = await send(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { Accept: "application/json", [CSRF_HEADER]: CSRF_HEADER_VALUE },
    cache: "no-store",
  });
  if (!response.ok) throw leavingWhenSignedOut(await toApiError(response));
  return response.json().catch(() => undefined);
}

/** POSTs a small JSON body to a state-changing BFF route, as postAction does. */
export async function postJsonAction<T>(path: string, body: unknown): Promise<T> {
  const response = await send(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { Accept: "application/json", "Content-Type": "application/json", [CSRF_HEADER]: CSRF_HEADER_VALUE },
    body: JSON.stringify(body),
    cache: "no-store",
  });
  if (!response.ok) throw leavingWhenSignedOut(await toApiError(response));
  return (await response.json()) as T;
}

/**
 * Leaves the signed-in app for the signed-out page with a full page load, so no cached private data or
 * client state survives, and the history entry is replaced so Back does not return to a dead session.
 * `returnTo`: where Sign in on that page leads back to.
 */
export function leaveForSignedOutPage(reason: SignedOutReason, returnTo?: string): void {
  const target = new URL(signedOutPath(reason, returnTo), window.location.origin);
  window.location.replace(target.href);
}
