import { NextResponse, type NextRequest } from "next/server";

import { listSignedInSessions } from "@/lib/auth/signed-in-sessions";
import type { SignedInSessionsBody } from "@/lib/contract/signed-in-sessions";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { loggedRoute } from "@/lib/http/request-log";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { SessionError } from "@/lib/session/errors";
import { loadSession } from "@/lib/session/session";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

export const GET = loggedRoute(API_ROUTES.sessions, handleGet);

/** "Where you're signed in": the member's sessions on this dashboard, from the shared state. Never a token. */
async function handleGet(request: NextRequest) {
  try {
    const loaded = await loadSession(requestResponseJar(request.cookies, new CookieBuffer()));
    if (!loaded) throw new SessionError("unauthenticated", "No one is signed in.");
    const body: SignedInSessionsBody = { sessions: await listSignedInSessions(loaded.data) };
    return NextResponse.json(body, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
