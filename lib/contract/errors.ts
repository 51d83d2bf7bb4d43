/**
 * The error answer of every BFF route, shared by the server (lib/http/error-responses.ts, the routes)
 * and the browser (lib/client/api.ts). Client-safe: no server-only import. docs/architecture.md section 4.
 */

/** Every `code` a BFF error answer may carry. The browser has a kind and its own words for each. */
export const PUBLIC_ERROR_CODES = [
  "unauthenticated",
  "insufficient_scope",
  "csrf_rejected",
  "refresh_unavailable",
  "site_unavailable",
  "revocation_unavailable",
  "revocation_refused",
  "temporarily_unavailable",
  "body_too_large",
  "site_timeout",
  "query_failed",
  "answer_too_large",
  "site_misconfigured",
  "authorization_denied",
  "authorization_failed",
  "callback_replayed",
  "id_token_invalid",
  "issuer_mismatch",
  "login_expired",
  "login_state_mismatch",
  "token_exchange_failed",
  "userinfo_mismatch",
  "not_found",
  "invalid_cursor",
  "invalid_request",
  "unexpected",
  "scope_not_granted",
  "pushed_request_failed",
  "sign_in_too_large",
  "rate_limited",
  "site_busy",
] as const;

export type PublicErrorCode = (typeof PUBLIC_ERROR_CODES)[number];

/**
 * The `detail` of a layer's error by which the site said it is busy: it limits how often it answers (429,
 * RFC 6585 section 4, or a GraphQL error saying so). The member is told to wait, for as long as the site
 * asked when it said (`Retry-After`, lib/site/site-busy.ts): as `site_busy` by the API routes, on the
 * sign-in problem page at sign-in.
 */
export const SITE_BUSY = "site_busy";

export function isPublicErrorCode(code: string): code is PublicErrorCode {
  return (PUBLIC_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * A BFF error as plain data: the HTTP status and the body's fields. What a page's server prefetch hands
 * the browser for a failure (an Error does not survive serialisation), and what the browser's ApiError
 * is rebuilt from (lib/client/api.ts).
 */
export interface PublicError {
  status: number;
  code: string;
  message: string;
  detail?: string;
  /**
   * How many seconds to wait before asking again: the site's, when it said (site_busy, or a 503's for
   * site_unavailable and refresh_unavailable), or our own limit's (rate_limited).
   */
  retryAfterSeconds?: number;
}

/** The JSON body of every BFF error answer: a public code, the BFF's own message, a safe detail. */
export interface ApiErrorBody {
  error: { code: PublicErrorCode; message: string; detail?: string; retryAfterSeconds?: number };
}
