import "server-only";

import type { CookieJar } from "iron-session";

import { logEvent } from "@/lib/log/logger";
import { clearSessionCookie, endSession, loadSession, loadSessionForSignOutWithoutSharedState, type LoadedSession } from "@/lib/session/session";
import { isSharedStateUnavailable } from "@/lib/session/shared-state";

import { AuthError } from "./errors";
import { revokeAtSite } from "./revocation";

/**
 * Sign-out ("revoke": also revoke at the site, RFC 7009). Works while the shared state does not answer:
 * the session cannot then be recorded as ended for the other instances, so its tokens are revoked at the
 * site even for a plain sign-out (a copied cookie then opens nothing), and the cookie is cleared anyway.
 * A revocation the site refuses or misses keeps the session for "Revoke access" (the member can retry).
 */
export async function signOut(jar: CookieJar, options: { revoke: boolean }): Promise<void> {
  let loaded: LoadedSession | null;
  let sharedStateDown = false;
  try {
    loaded = await loadSession(jar);
  } catch (error) {
    if (!isSharedStateUnavailable(error)) throw error;
    sharedStateDown = true;
    loaded = await loadSessionForSignOutWithoutSharedState(jar);
  }
  if (options.revoke) {
    if (!loaded) throw new AuthError("unauthenticated", "No one is signed in.");
    await revokeAtSite(loaded.data);
  } else if (sharedStateDown && loaded) {
    await revokeAtSite(loaded.data).catch((error: unknown) => {
      logEvent("revocation_failed", { reason: "sign_out_without_shared_state", code: error instanceof AuthError ? error.code : "unexpected" }, "warn");
    });
  }
  if (sharedStateDown) {
    clearSessionCookie(jar);
    return;
  }
  await endSession(jar, loaded?.data).catch((error: unknown) => {
    // The shared state went away between the load and the end: the cookie still goes.
    if (!isSharedStateUnavailable(error)) throw error;
    clearSessionCookie(jar);
  });
}
