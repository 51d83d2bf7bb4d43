import { NextResponse, type NextRequest } from "next/server";

import { assertSameOriginRequest } from "@/lib/auth/csrf";
import { AuthError } from "@/lib/auth/errors";
import { revokeAtSite } from "@/lib/auth/revocation";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { endSession, loadSession } from "@/lib/session/session";
import { loggedRoute } from "@/lib/http/request-log";
import { logEvent } from "@/lib/log/logger";

export const dynamic = "force-dynamic";

export const POST = loggedRoute("/api/auth/revoke", handlePost);

/**
 * Revokes the member's tokens at the site (RFC 7009), then ends the session. When the site cannot be
 * reached, the session is kept and the answer says so, so the member can retry.
 */
async function handlePost(request: NextRequest) {
  try {
    assertSameOriginRequest(request);
    const buffer = new CookieBuffer();
    const jar = requestResponseJar(request.cookies, buffer);
    const loaded = await loadSession(jar);
    if (!loaded) throw new AuthError("unauthenticated", "No one is signed in.");
    await revokeAtSite(loaded.data);
    logEvent("access_revoked");
    await endSession(jar, loaded.data.sid);
    return buffer.applyTo(NextResponse.json({ revoked: true }, { headers: { "cache-control": "no-store" } }));
  } catch (error) {
    return apiErrorResponse(error);
  }
}
