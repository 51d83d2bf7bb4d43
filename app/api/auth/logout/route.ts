import { NextResponse } from "next/server";

import { isAuthError } from "@/lib/auth/errors";
import { revokeAtSite } from "@/lib/auth/revocation";
import { endSessionRedirect, endSessionTicketPath } from "@/lib/auth/end-session";
import { endSessionForSignOut } from "@/lib/auth/sign-out";
import { withClearedSiteCookies } from "@/lib/http/signed-out-response";
import { signOutHandler } from "@/lib/http/sign-out-route";
import { loggedRoute } from "@/lib/http/request-log";
import { logEvent } from "@/lib/log/logger";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

/**
 * Signs out for good (OWASP ASVS 5 V7.4.1): the refresh and access tokens are revoked at the site (RFC
 * 7009), so a copied cookie holds nothing live, and the session is marked ended in the shared state. When
 * the site does not confirm the revocation, the member is still signed out here, and `complete: false`
 * says so.
 */
export const POST = loggedRoute(
  API_ROUTES.logout,
  signOutHandler(async ({ jar, buffer, sessions, locale }) => {
    let complete = true;
    // Every session the browser holds here, top-level and embedded alike, each with its own grant.
    for (const session of sessions) {
      try {
        await revokeAtSite(session.data);
      } catch (error) {
        // Logged by revokeAtSite with its reason; the local session ends regardless.
        if (!isAuthError(error)) throw error;
        complete = false;
      }
    }
    await endSessionForSignOut(jar, sessions);
    logEvent("signed_out", { hadSession: sessions.length > 0, sessions: sessions.length, revokedAtSite: sessions.length > 0 && complete });
    // OpenID Connect RP-Initiated Logout 1.0: where the browser goes next to end the site's session too (lib/auth/end-session.ts).
    // The hint: the first session ended here that kept its id_token (section 2 of that specification).
    const hinted = sessions.find((session) => session.data.idToken) ?? sessions[0];
    // The browser gets that URL sealed in a ticket of the dashboard's own (GET /api/auth/end-session): it carries the ID token.
    const siteEndSessionUrl = await endSessionRedirect(hinted?.data, complete ? "signed_out" : "signed_out_locally", locale);
    const endSessionUrl = siteEndSessionUrl ? await endSessionTicketPath(siteEndSessionUrl) : undefined;
    return withClearedSiteCookies(buffer, NextResponse.json({ signedOut: true, complete, ...(endSessionUrl ? { endSessionUrl } : {}) }));
  }),
);
