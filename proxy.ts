import { NextResponse, type NextRequest } from "next/server";

import { isAuthError } from "@/lib/auth/errors";
import { ensureFreshTokens } from "@/lib/auth/tokens";
import { baseSecurityHeaders, contentSecurityPolicy } from "@/lib/http/security-headers";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { endSession, loadSession, saveSession } from "@/lib/session/session";

/**
 * Runs before every page: security headers with a per-request CSP nonce, and the token refresh a page
 * render needs. (API routes carry static security headers from next.config.mjs and refresh themselves.) A Server Component cannot set cookies, so the refresh happens here,
 * where the rotated refresh token can be persisted, and the render sees the fresh session.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const buffer = new CookieBuffer();
  await refreshBeforeRender(request, buffer);

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64");
  const csp = contentSecurityPolicy(nonce, pathname, process.env.NODE_ENV === "development");
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);

  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  for (const [name, value] of Object.entries(baseSecurityHeaders(pathname))) response.headers.set(name, value);
  // Every page is personal or sets cookies: never cached by the browser or a shared cache.
  response.headers.set("cache-control", "no-store");
  buffer.applyTo(response);
  return response;
}

async function refreshBeforeRender(request: NextRequest, buffer: CookieBuffer): Promise<void> {
  const jar = requestResponseJar(request.cookies, buffer, request.cookies);
  const loaded = await loadSession(jar).catch(() => null);
  if (!loaded) return;
  try {
    const fresh = await ensureFreshTokens(loaded.data);
    if (fresh.changed || loaded.needsSave) await saveSession(jar, fresh.session, loaded.variant);
  } catch (error) {
    // When the shared state cannot record the end, the cookie stays: the render then says "temporarily unavailable".
    if (isAuthError(error, "session_ended")) await endSession(jar, loaded.data).catch(() => undefined);
    // A transient failure (site or shared state) keeps the session: the page shows its error with Retry.
  }
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico|icon.svg|manifest.webmanifest|fonts/).*)",
      missing: [{ type: "header", key: "next-router-prefetch" }],
    },
  ],
};
