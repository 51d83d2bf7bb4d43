import "server-only";

import { LayerError } from "@/lib/errors/layer-error";

/**
 * The error type of the session layer (lib/session), with stable codes: no member session (none, ended,
 * or refused by the site: sign in again), or the shared state not answering (fail closed, the cookie
 * kept). lib/http/error-responses.ts maps each code to what the browser is told.
 */
export type SessionErrorCode = "unauthenticated" | "shared_state_unavailable";

export class SessionError extends LayerError<SessionErrorCode> {
  override name = "SessionError";
}

export function isSessionError(error: unknown, code?: SessionErrorCode): error is SessionError {
  return error instanceof SessionError && (code === undefined || error.code === code);
}

/**
 * The store did not answer (down, hung, refused): the caller must fail closed (no refresh without the
 * lock, no session trusted without its "ended" check), and never treat it as "signed out".
 */
export class SharedStateUnavailableError extends SessionError {
  declare readonly code: "shared_state_unavailable";
  override name = "SharedStateUnavailableError";

  constructor(message: string, options?: { cause?: unknown }) {
    super("shared_state_unavailable", message, options);
  }
}

/**
 * By its code, not `instanceof`: Next.js bundles the proxy, the route handlers and the pages separately,
 * and the one store (on globalThis) throws the error class of whichever bundle created it.
 */
export function isSharedStateUnavailable(error: unknown): error is SharedStateUnavailableError {
  return error instanceof Error && (error as { code?: unknown }).code === "shared_state_unavailable";
}
