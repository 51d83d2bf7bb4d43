import { LayerError } from "@/lib/errors/layer-error";
import type { PopupSignIn } from "./embedded-handoff";

/**
 * The error type of the sign-in layer (lib/auth: sign-in, tokens and their refresh, revocation, CSRF),
 * with stable codes. The other layers have their own: SiteError (lib/site/errors.ts) for the site's
 * resources, SessionError (lib/session/errors.ts) for the session and the shared state. Route handlers
 * and pages map every layer's code to an HTTP status or a page in one place (lib/http/error-responses.ts);
 * nothing renders `message` from the site.
 */
export type AuthErrorCode =
  | "site_unavailable"
  | "site_misconfigured"
  | "login_expired"
  | "login_state_mismatch"
  | "callback_replayed"
  | "authorization_denied"
  | "authorization_failed"
  | "issuer_mismatch"
  | "token_exchange_failed"
  | "id_token_invalid"
  | "userinfo_mismatch"
  | "session_ended"
  | "refresh_unavailable"
  | "revocation_unavailable"
  | "revocation_refused"
  | "csrf_rejected"
  | "scope_not_granted"
  | "pushed_request_failed"
  /** The sign-in would not fit in the browser's cookies (transaction or session past its size bound). */
  | "sign_in_too_large"
  /** Too many requests of this kind from this client or session (lib/http/rate-limit.ts). */
  | "rate_limited"
  /** "Sign out there" named a session that is not the member's, or no longer exists. */
  | "session_not_found";

export class AuthError extends LayerError<AuthErrorCode> {
  override name = "AuthError";
  /**
   * Set on a sign-in failure in the embedded panel's popup: that sign-in's handoff binding, so the
   * problem page's "try again" in the popup stays the panel's sign-in, and the panel's language, which
   * that page speaks (lib/http/auth-redirects.ts).
   */
  popup?: PopupSignIn;
  /** Set on `rate_limited`: the seconds until the member may try again (RFC 6585 section 4, `Retry-After`). */
  retryAfterSeconds?: number;
}

export function isAuthError(error: unknown, code?: AuthErrorCode): error is AuthError {
  return error instanceof AuthError && (code === undefined || error.code === code);
}

/** OAuth error codes we may echo to the member (RFC 6749 section 4.1.2.1 and 5.2); anything else becomes "unknown". */
const KNOWN_OAUTH_ERRORS = new Set([
  "access_denied",
  "invalid_request",
  "unauthorized_client",
  "unsupported_response_type",
  "invalid_scope",
  "server_error",
  "temporarily_unavailable",
  "invalid_grant",
  "invalid_client",
  "unsupported_token_type",
  "invalid_target",
  "login_required",
  "consent_required",
  "interaction_required",
]);

export function safeOAuthErrorCode(value: unknown): string {
  return typeof value === "string" && KNOWN_OAUTH_ERRORS.has(value) ? value : "unknown";
}
