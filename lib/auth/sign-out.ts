import "server-only";

import type { CookieJar } from "iron-session";

import { logEvent } from "@/lib/log/logger";
import {
  clearSessionCookie,
  endSession,
  loadSession,
  loadSessionForSignOutWithoutSharedState,
  type LoadedSession,
  type SessionData,
} from "@/lib/session/session";
import { isSharedStateUnavailable } from "@/lib/session/shared-state";

/**
 * The session to sign out of. Sign-out works while the shared state does not answer: the cookie is then
 * opened without its "ended" check, so that its tokens can still be revoked at the site and the cookie
 * cleared (docs/architecture.md section 8).
 */
export async function loadSessionForSignOut(jar: CookieJar): Promise<LoadedSession | null> {
  try {
    return await loadSession(jar);
  } catch (error) {
    if (!isSharedStateUnavailable(error)) throw error;
    return loadSessionForSignOutWithoutSharedState(jar);
  }
}

/**
 * Ends the session after sign-out or revocation. When the shared state cannot record the end for the
 * other instances, the cookie is cleared all the same: its refresh token was revoked at the site, so a
 * copy of it opens nothing.
 */
export async function endSessionForSignOut(jar: CookieJar, session: SessionData | undefined): Promise<void> {
  try {
    await endSession(jar, session);
  } catch (error) {
    if (!isSharedStateUnavailable(error)) throw error;
    logEvent("shared_state_error", { operation: "end_session", outcome: "cookie_cleared_only" }, "warn");
    clearSessionCookie(jar);
  }
}
