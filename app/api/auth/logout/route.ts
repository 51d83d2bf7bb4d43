import { NextResponse, type NextRequest } from "next/server";

import { assertSameOriginRequest } from "@/lib/auth/csrf";
import { isAuthError } from "@/lib/auth/errors";
import { revokeAtSite } from "@/lib/auth/revocation";
import { endSessionForSignOut, loadSessionForSignOut } from "@/lib/auth/sign-out";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { withClearedSiteCookies } from "@/lib/http/signed-out-response";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { loggedRoute } from "@/lib/http/request-log";
import { logEvent } from "@/lib/log/logger";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

export const POST = loggedRoute(API_ROUTES.logout, handlePost);

/**
 * Signs out for good (OWASP ASVS 5 V7.4.1): the refresh token is revoked at the site (RFC 7009), so a
 * copied cookie holds nothing live, and the session is marked ended in the shared state. "Revoke
 * access" revokes the access token as well. When the site does not confirm the revocation, the member
 * is still signed out here, and `complete: false` says so.
 */
async function handlePost(request: NextRequest) {
  try {
    assertSameOriginRequest(request);
    const buffer = new CookieBuffer();
    const jar = requestResponseJar(request.cookies, buffer);
    const loaded = await loadSessionForSignOut(jar);
    let complete = true;
    if (loaded) {
      try {
        await revokeAtSite(loaded.data, "refresh_token");
      } catch (error) {
        // Logged by revokeAtSite with its reason; the local session ends regardless.
        if (!isAuthError(error)) throw error;
        complete = false;
      }
    }
    await endSessionForSignOut(jar, loaded?.data);
    logEvent("signed_out", { hadSession: loaded !== null, revokedAtSite: loaded !== null && complete });
    return withClearedSiteCookies(buffer, NextResponse.json({ signedOut: true, complete }));
  } catch (error) {
    return apiErrorResponse(error);
  }
}
