import { NextResponse, type NextRequest } from "next/server";

import { assertSameOriginRequest } from "@/lib/auth/csrf";
import { endOtherSessions } from "@/lib/auth/signed-in-sessions";
import { readCappedText } from "@/lib/http/capped-body";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { loggedRoute } from "@/lib/http/request-log";
import { RequestError } from "@/lib/http/request-errors";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { SessionError } from "@/lib/session/errors";
import { loadSession } from "@/lib/session/session";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

export const POST = loggedRoute(API_ROUTES.endSessions, handlePost);

/**
 * "Sign out there" (`{ "id": … }`) or "Sign out everywhere else" (`{ "others": true }`): a same-origin
 * request only (OWASP ASVS 5 V3.5.1), from a signed-in member, about their own other sessions.
 */
async function handlePost(request: NextRequest) {
  try {
    assertSameOriginRequest(request);
    const loaded = await loadSession(requestResponseJar(request.cookies, new CookieBuffer()));
    if (!loaded) throw new SessionError("unauthenticated", "No one is signed in.");
    let body: unknown;
    try {
      body = JSON.parse(await readCappedText(request, 256));
    } catch (error) {
      if (error instanceof SyntaxError) throw new RequestError("invalid_session_choice", "The request's body is not JSON.");
      throw error;
    }
    const { id, others } = (body ?? {}) as { id?: unknown; others?: unknown };
    const which = others === true ? ({ others: true } as const) : typeof id === "string" ? { id } : undefined;
    if (!which) throw new RequestError("invalid_session_choice", "The request names no session.");
    return NextResponse.json(await endOtherSessions(loaded.data, which), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
