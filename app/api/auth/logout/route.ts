import { NextResponse, type NextRequest } from "next/server";

import { assertSameOriginRequest } from "@/lib/auth/csrf";
import { signOut } from "@/lib/auth/sign-out";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";

export const dynamic = "force-dynamic";

/** Ends the local session. The site's grant stays; "Revoke access" ends that too. */
export async function POST(request: NextRequest) {
  try {
    assertSameOriginRequest(request);
    const buffer = new CookieBuffer();
    await signOut(requestResponseJar(request.cookies, buffer), { revoke: false });
    return buffer.applyTo(NextResponse.json({ signedOut: true }, { headers: { "cache-control": "no-store" } }));
  } catch (error) {
    return apiErrorResponse(error);
  }
}
