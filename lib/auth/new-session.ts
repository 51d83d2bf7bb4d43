import "server-only";

import type { CookieJar } from "iron-session";

import { logEvent } from "@/lib/log/logger";
import { loadEverySession, markSessionEnded, saveSession, type SessionData, type SessionVariant } from "@/lib/session/session";
import { isSharedStateUnavailable } from "@/lib/session/shared-state";

import { isAuthError } from "./errors";
import { revokeAtSite } from "./revocation";

/**
 * Starts the session of a new sign-in in the cookie of `variant`: a fresh seal of the new session only
 * (lib/session/session.ts saveSession), and the session that cookie held before is ended on every
 * instance and its grant revoked at the site (OWASP ASVS 5 V7.2.4 and V7.4.1: a replaced session, or a
 * fixated one, keeps nothing alive). A revocation the site does not confirm is logged; the sign-in goes on.
 */
export async function startNewSession(jar: CookieJar, session: SessionData, variant: SessionVariant = "top"): Promise<void> {
  const replaced = await loadEverySession(jar, { variant }).catch((error: unknown) => {
    if (isSharedStateUnavailable(error)) return [];
    throw error;
  });
  await saveSession(jar, session, variant);
  for (const { data } of replaced) {
    if (data.sid === session.sid) continue;
    await markSessionEnded(data);
    try {
      await revokeAtSite(data, "refresh_token");
    } catch (error) {
      if (!isAuthError(error)) throw error;
    }
    logEvent("session_replaced", { variant });
  }
}
