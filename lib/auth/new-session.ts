import "server-only";

import type { CookieJar } from "iron-session";

import { logEvent } from "@/lib/log/logger";
import { loadEverySession, markSessionEnded, saveSession, type SessionData, type SessionVariant } from "@/lib/session/session";
import { isSharedStateUnavailable } from "@/lib/session/shared-state";

import { AuthError, isAuthError } from "./errors";
import { revokeAtSite } from "./revocation";
import { recordSignIn } from "./signed-in-sessions";

/**
 * Starts the session of a new sign-in in the cookie of `variant`: a fresh seal of the new session only
 * (lib/session/session.ts saveSession), and the session that cookie held before is ended on every
 * instance and its grant revoked at the site (OWASP ASVS 5 V7.2.4 and V7.4.1: a replaced session, or a
 * fixated one, keeps nothing alive). A revocation the site does not confirm is logged; the sign-in goes on.
 */
export async function startNewSession(
  jar: CookieJar,
  session: SessionData,
  variant: SessionVariant = "top",
  userAgent?: string | null,
): Promise<void> {
  const replaced = await loadEverySession(jar, { variant }).catch((error: unknown) => {
    if (isSharedStateUnavailable(error)) return [];
    throw error;
  });
  try {
    await saveSession(jar, session, variant);
  } catch (error) {
    // iron-session refuses a session that needs more than four cookies: a clean sign-in error, not a crash
    // (OWASP ASVS 5 V3.3.5; security checklist 46).
    if (error instanceof Error && /^iron-session: (The session needs|Cookie length is too big)/.test(error.message)) {
      throw new AuthError("sign_in_too_large", "The session would not fit in the browser's cookies.", { cause: error, detail: "session" });
    }
    throw error;
  }
  // Listed under "Where you're signed in" (browser and system in words only).
  await recordSignIn(session, variant, userAgent);
  for (const { data } of replaced) {
    if (data.sid === session.sid) continue;
    await markSessionEnded(data);
    try {
      await revokeAtSite(data);
    } catch (error) {
      if (!isAuthError(error)) throw error;
    }
    logEvent("session_replaced", { variant });
  }
}
