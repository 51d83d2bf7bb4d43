import { NextResponse, type NextRequest } from "next/server";

import { isPrefetch, startLogin } from "@/lib/auth/login";
import { signInProblemRedirect } from "@/lib/http/auth-redirects";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest) {
  // A prefetch must not start a sign-in or set a transaction cookie.
  if (isPrefetch(request.headers)) return new NextResponse(null, { status: 204, headers: { "cache-control": "no-store" } });
  const buffer = new CookieBuffer();
  try {
    const authorizationUrl = await startLogin(requestResponseJar(request.cookies, buffer), request.nextUrl.searchParams.get("returnTo"));
    return buffer.applyTo(NextResponse.redirect(authorizationUrl, 303));
  } catch (error) {
    return signInProblemRedirect(error);
  }
}
