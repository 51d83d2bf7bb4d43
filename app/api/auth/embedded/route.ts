import { NextResponse, type NextRequest } from "next/server";

import { assertSameOriginRequest } from "@/lib/auth/csrf";
import { redeemHandoff } from "@/lib/auth/embedded-handoff";
import { startNewSession } from "@/lib/auth/new-session";
import { readCappedText } from "@/lib/http/capped-body";
import { rethrowCountedSignInFailure } from "@/lib/http/auth-redirects";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { rateLimited } from "@/lib/http/rate-limit";
import { RequestError } from "@/lib/http/request-errors";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { loggedRoute } from "@/lib/http/request-log";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

export const POST = loggedRoute(API_ROUTES.embedded, handlePost);

const MAX_BODY_BYTES = 1024;

/**
 * The embedded dashboard redeems the popup's one-time handoff code: the session is then sealed into the
 * frame's own SameSite=None; Secure; Partitioned cookie (CHIPS), which lives in the frame's partition.
 */
async function handlePost(request: NextRequest) {
  const limited = await rateLimited(request);
  if (limited) return limited;
  try {
    assertSameOriginRequest(request);
    const text = await readCappedText(request, MAX_BODY_BYTES);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new RequestError("invalid_handoff_request", "The handoff request is not JSON.");
    }
    const { code, verifier } = (body ?? {}) as { code?: unknown; verifier?: unknown };
    if (typeof code !== "string" || typeof verifier !== "string")
      throw new RequestError("invalid_handoff_request", "The handoff request lacks its code or verifier.");
    const buffer = new CookieBuffer();
    // From here the request is a well-formed handoff, and its failure is a failed sign-in.
    await signInWithHandoff(request, buffer, code, verifier).catch(rethrowCountedSignInFailure);
    return buffer.applyTo(NextResponse.json({ signedIn: true }));
  } catch (error) {
    return apiErrorResponse(error);
  }
}

async function signInWithHandoff(request: NextRequest, buffer: CookieBuffer, code: string, verifier: string): Promise<void> {
  const session = await redeemHandoff(code, verifier);
  await startNewSession(requestResponseJar(request.cookies, buffer), session, "embedded", request.headers.get("user-agent"));
}
