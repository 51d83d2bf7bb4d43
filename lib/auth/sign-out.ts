import "server-only";

import type { CookieJar } from "iron-session";

import { logEvent } from "@/lib/log/logger";
import {
  clearSessionCookie,
  endSession,
  loadEverySession,
  markSessionEnded,
  type LoadedSession,
  type SessionData,
} from "@/lib/session/session";
import { isSharedStateUnavailable } from "@/lib/session/shared-state";

/**
 * Every session the browser holds here (top-level and embedded cookies alike), for a sign-out or a
 * revocation that must end them all; opened without the "ended" check while the shared state does not answer.
 */
export async function loadSessionsForSignOut(jar: CookieJar): Promise<LoadedSession[]> {
  try {
    return await loadEverySession(jar);
  } catch (error) {
    if (!isSharedStateUnavailable(error)) throw error;
    return loadEverySession(jar, { checkEnded: false });
  }
}

/**
 * Ends the session after sign-out or revocation. When the shared state cannot record the end for the
 * other instances, the cookie is cleared all the same: its refresh token was revoked at the site, so a
 * copy of it opens nothing.
 */
export async function endSessionForSignOut(jar: CookieJar, session: SessionData | readonly LoadedSession[] | undefined): Promise<void> {
  try {
    if (Array.isArray(session)) {
      // Every variant is marked ended, then every session cookie cleared.
      for (const loaded of session as readonly LoadedSession[]) await markSessionEnded(loaded.data);
      await endSession(jar, undefined);
    } else {
      await endSession(jar, session as SessionData | undefined);
    }
  } catch (error) {
    if (!isSharedStateUnavailable(error)) throw error;
    logEvent("shared_state_error", { operation: "end_session", outcome: "cookie_cleared_only" }, "warn");
    clearSessionCookie(jar);
  }
}
