import { NextResponse, type NextRequest } from "next/server";

import { assertSameOriginRequest } from "@/lib/auth/csrf";
import { signOut } from "@/lib/auth/sign-out";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";

export const dynamic = "force-dynamic";

/**
 * Revokes the member's tokens at the site (RFC 7009), then ends the session. When the site cannot be
 * reached, the session is kept and the answer says so, so the member can retry.
 */
export async function POST(request: NextRequest) {
  try {
    assertSameOriginRequest(request);
    const buffer = new CookieBuffer();
    await signOut(requestResponseJar(request.cookies, buffer), { revoke: true });
    return buffer.applyTo(NextResponse.json({ revoked: true }, { headers: { "cache-control": "no-store" } }));
  } catch (error) {
    return apiErrorResponse(error);
  }
}
