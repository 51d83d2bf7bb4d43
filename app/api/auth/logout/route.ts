import { NextResponse, type NextRequest } from "next/server";

import { assertSameOriginRequest } from "@/lib/auth/csrf";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { endSession, loadSession } from "@/lib/session/session";
import { loggedRoute } from "@/lib/http/request-log";
import { logEvent } from "@/lib/log/logger";

export const dynamic = "force-dynamic";

export const POST = loggedRoute("/api/auth/logout", handlePost);

/** Ends the local session. The site's grant stays; "Revoke access" ends that too. */
async function handlePost(request: NextRequest) {
  try {
    assertSameOriginRequest(request);
    const buffer = new CookieBuffer();
    const jar = requestResponseJar(request.cookies, buffer);
    const loaded = await loadSession(jar);
    await endSession(jar, loaded?.data.sid);
    logEvent("signed_out", { hadSession: loaded !== null });
    return buffer.applyTo(NextResponse.json({ signedOut: true }, { headers: { "cache-control": "no-store" } }));
  } catch (error) {
    return apiErrorResponse(error);
  }
}
