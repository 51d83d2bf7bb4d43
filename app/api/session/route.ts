import { NextResponse, type NextRequest } from "next/server";

import { apiErrorResponse } from "@/lib/http/error-responses";
import { toSessionView } from "@/lib/http/session-view";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { SessionError } from "@/lib/session/errors";
import { loadSession, saveSession } from "@/lib/session/session";
import { loggedRoute } from "@/lib/http/request-log";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

export const GET = loggedRoute(API_ROUTES.session, handleGet);

/** Who is signed in: claims and granted scopes only, never a token. */
async function handleGet(request: NextRequest) {
  try {
    const buffer = new CookieBuffer();
    const jar = requestResponseJar(request.cookies, buffer);
    const loaded = await loadSession(jar);
    if (!loaded) throw new SessionError("unauthenticated", "No one is signed in.");
    if (loaded.needsSave) await saveSession(jar, loaded.data, loaded.variant);
    return buffer.applyTo(NextResponse.json(toSessionView(loaded.data), { headers: { "cache-control": "no-store" } }));
  } catch (error) {
    return apiErrorResponse(error);
  }
}
