import "server-only";

import type { CookieJar } from "iron-session";

import { endSession, loadSession, saveSession, type SessionData } from "@/lib/session/session";
import { isSharedStateUnavailable } from "@/lib/session/shared-state";

import { AuthError, isAuthError } from "./errors";
import { ensureFreshTokens } from "./tokens";

/**
 * Runs `call` with a valid access token of the signed-in member: refreshes shortly before expiry, and
 * once more if the site refuses the token (then one retry). Persists rotated tokens into the cookie,
 * and ends the session when the site no longer accepts the grant. Route handlers only (they can set
 * cookies); pages read the session without ever refreshing.
 */
export async function callWithMemberSession<T>(
  jar: CookieJar,
  call: (accessToken: string, session: SessionData) => Promise<T>,
): Promise<T> {
  const loaded = await loadSession(jar);
  if (!loaded) throw new AuthError("unauthenticated", "No one is signed in.");
  let session = loaded.data;
  let dirty = loaded.needsSave;
  try {
    const fresh = await ensureFreshTokens(session);
    session = fresh.session;
    dirty ||= fresh.changed;
    let result: T;
    try {
      result = await call(session.accessToken, session);
    } catch (error) {
      if (!isAuthError(error, "unauthenticated")) throw error;
      // RFC 6750 section 3.1 invalid_token: refresh once and retry once.
      const retried = await ensureFreshTokens(session, { force: true });
      session = retried.session;
      dirty = true;
      try {
        result = await call(session.accessToken, session);
      } catch (retryError) {
        if (isAuthError(retryError, "unauthenticated") && retryError.detail === "invalid_token_with_metadata") {
          // A token issued seconds ago is still refused: it is bound to something the site does not accept.
          throw new AuthError("token_audience_mismatch", "The site refuses tokens issued for SITE_URL.", { cause: retryError });
        }
        throw retryError;
      }
    }
    if (dirty && !(await saveSession(jar, session, loaded.variant))) {
      throw new AuthError("unauthenticated", "The session ended while this request was running.");
    }
    return result;
  } catch (error) {
    if (isAuthError(error, "session_ended") || isAuthError(error, "unauthenticated")) {
      await endSession(jar, session);
      throw new AuthError("unauthenticated", "Please sign in again.", { cause: error, detail: error.code });
    }
    if (isSharedStateUnavailable(error)) {
      // The site may have rotated the refresh token before the shared state went away: keep the new one
      // in the cookie, or the next request would replay the spent one and the site would revoke the grant.
      if (session.refreshToken !== loaded.data.refreshToken) await saveSession(jar, session, loaded.variant, { checkEnded: false });
      throw error;
    }
    if (dirty && !isAuthError(error, "refresh_unavailable")) await saveSession(jar, session, loaded.variant);
    throw error;
  }
}
