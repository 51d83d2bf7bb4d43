import { NextResponse, type NextRequest } from "next/server";

import { assertSameOriginRequest } from "@/lib/auth/csrf";
import { isAuthError } from "@/lib/auth/errors";
import { revokeAtSite } from "@/lib/auth/revocation";
import { endSessionForSignOut, loadSessionForSignOut } from "@/lib/auth/sign-out";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { withClearedSiteCookies } from "@/lib/http/signed-out-response";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { SessionError } from "@/lib/session/errors";
import { loggedRoute } from "@/lib/http/request-log";
import { logEvent } from "@/lib/log/logger";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

export const POST = loggedRoute(API_ROUTES.revoke, handlePost);

/**
 * Revokes the member's tokens at the site (RFC 7009), then ends the session. When the site cannot be
 * reached, the session is kept and the answer says so, so the member can retry. When the site refuses
 * (a configuration fault, RFC 7009 section 2.2.1), retrying cannot help: the session ends here and the
 * answer says plainly that the site did not revoke.
 */
async function handlePost(request: NextRequest) {
  try {
    assertSameOriginRequest(request);
    const buffer = new CookieBuffer();
    const jar = requestResponseJar(request.cookies, buffer);
    const loaded = await loadSessionForSignOut(jar);
    if (!loaded) throw new SessionError("unauthenticated", "No one is signed in.");
    try {
      await revokeAtSite(loaded.data);
    } catch (error) {
      if (!isAuthError(error, "revocation_refused")) throw error;
      await endSessionForSignOut(jar, loaded.data);
      return withClearedSiteCookies(buffer, apiErrorResponse(error));
    }
    logEvent("access_revoked");
    await endSessionForSignOut(jar, loaded.data);
    return withClearedSiteCookies(buffer, NextResponse.json({ revoked: true }));
  } catch (error) {
    return apiErrorResponse(error);
  }
}
