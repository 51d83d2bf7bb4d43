import "server-only";

import type { CookieJar } from "iron-session";

import { countSessionEnded } from "@/lib/metrics/record";
import { isSessionError, SessionError } from "@/lib/session/errors";
import { endSession, loadSession, saveSession, type SessionData } from "@/lib/session/session";
import { isSharedStateUnavailable } from "@/lib/session/shared-state";
import { isSiteError, REFUSED_WITH_METADATA, SiteError } from "@/lib/site/errors";

import { isAuthError } from "./errors";
import { withMemberBinding } from "./dpop";
import { noteSessionActivity } from "./signed-in-sessions";
import { ACCESS_WITHDRAWN, ensureFreshTokens } from "./tokens";

/**
 * The one refresh path, for page renders (proxy.ts) and data routes (callWithMemberSession): loads the
 * member's session, refreshes its tokens when they are due, runs `work` with the fresh session (with
 * `refreshNow` for a token the site refused), persists what changed into the cookie, and ends the
 * session when the site no longer accepts the grant (then throws SessionError "unauthenticated").
 * Only where cookies can be written: a Server Component render reads the session and never refreshes.
 *
 * A transient failure (site or shared state) keeps the session and is thrown as it is. When the shared
 * state cannot record an end, the end's error is thrown and the cookie stays.
 */
export async function withFreshMemberSession<T>(
  jar: CookieJar,
  work: (session: SessionData, refreshNow: () => Promise<SessionData>) => Promise<T>,
): Promise<T> {
  const loaded = await loadSession(jar);
  if (!loaded) throw new SessionError("unauthenticated", "No one is signed in.");
  let session = loaded.data;
  let dirty = loaded.needsSave;
  const refresh = async (force: boolean): Promise<SessionData> => {
    const fresh = await ensureFreshTokens(session, { force });
    session = fresh.session;
    dirty ||= fresh.changed;
    return session;
  };
  try {
    const result = await work(await refresh(false), () => refresh(true));
    if (dirty && !(await saveSession(jar, session, loaded.variant))) {
      throw new SessionError("unauthenticated", "The session ended while this request was running.");
    }
    // "Where you're signed in": last activity, and the grant that is live now (lib/auth/signed-in-sessions.ts).
    if (dirty) await noteSessionActivity(session);
    return result;
  } catch (error) {
    if (isAuthError(error, "session_ended") || isSessionError(error, "unauthenticated") || isSiteError(error, "token_refused")) {
      await endSession(jar, session);
      if (!isSessionError(error)) countSessionEnded("grant_gone");
      // The member is told why when the site withdrew the app's access (lib/auth/tokens.ts).
      const detail = isAuthError(error) && error.detail === ACCESS_WITHDRAWN ? ACCESS_WITHDRAWN : error.code;
      throw new SessionError("unauthenticated", "Please sign in again.", { cause: error, detail });
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

/**
 * Refreshes the member's tokens when they are due and persists the rotated ones into the cookie (a page
 * render's refresh: proxy.ts, before a Server Component that cannot write cookies reads the session).
 * Returns the session as persisted. Throws as withFreshMemberSession does.
 */
export function refreshMemberSession(jar: CookieJar): Promise<SessionData> {
  return withFreshMemberSession(jar, (session) => Promise.resolve(session));
}

/**
 * Runs `call` with a valid access token of the signed-in member (withFreshMemberSession), and once more
 * if the site refuses the token: refreshed, then one retry. Route handlers only.
 */
export function callWithMemberSession<T>(jar: CookieJar, call: (accessToken: string, session: SessionData) => Promise<T>): Promise<T> {
  return withFreshMemberSession(jar, async (session, refreshNow) => {
    try {
      return await withMemberBinding(session, () => call(session.accessToken, session));
    } catch (error) {
      if (!isSiteError(error, "token_refused")) throw error;
      // RFC 6750 section 3.1 invalid_token: refresh once and retry once.
      const renewed = await refreshNow();
      try {
        return await withMemberBinding(renewed, () => call(renewed.accessToken, renewed));
      } catch (retryError) {
        if (isSiteError(retryError, "token_refused") && retryError.detail === REFUSED_WITH_METADATA) {
          // A token issued seconds ago is still refused: it is bound to something the site does not accept.
          throw new SiteError("token_audience_mismatch", "The site refuses tokens issued for SITE_URL.", { cause: retryError });
        }
        throw retryError;
      }
    }
  });
}
