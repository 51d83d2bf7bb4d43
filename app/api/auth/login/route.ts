import { NextResponse, type NextRequest } from "next/server";

import { isValidBinding } from "@/lib/auth/embedded-handoff";
import { AuthError } from "@/lib/auth/errors";
import { isPrefetch, returnToOfSignedOutPage, startLogin } from "@/lib/auth/login";
import { appRedirect, signInProblemRedirect } from "@/lib/http/auth-redirects";
import { isFramedRequest } from "@/lib/http/embedding";
import { rateLimitRefusal } from "@/lib/http/rate-limit";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { loggedRoute } from "@/lib/http/request-log";
import { API_ROUTES } from "@/lib/contract/paths";
import { localeOfRequest, popupLocaleOf } from "@/lib/i18n/locales";
import { logEvent } from "@/lib/log/logger";

export const dynamic = "force-dynamic";

export const GET = loggedRoute(API_ROUTES.login, handleGet);

async function handleGet(request: NextRequest) {
  // A prefetch must not start a sign-in or set a transaction cookie.
  if (isPrefetch(request.headers)) return new NextResponse(null, { status: 204, headers: { "cache-control": "no-store" } });
  const params = request.nextUrl.searchParams;
  const binding = params.get("display") === "popup" ? params.get("binding") : null;
  const popup = isValidBinding(binding) ? { binding, locale: popupLocaleOf(params) } : undefined;
  // Past a limit, a navigation ends on a page that says how long to wait, never on a JSON answer.
  const refusal = await rateLimitRefusal(request);
  if (refusal) {
    refusal.popup = popup;
    return signInProblemRedirect(refusal);
  }
  // The site's authorization page is never framed: inside a frame, sign-in starts in a popup or a new tab
  // (components/layout/embedded-sign-in.tsx).
  if (isFramedRequest(request.headers)) return appRedirect("/");
  if (params.get("display") === "popup" && !popup) {
    return signInProblemRedirect(new AuthError("login_state_mismatch", "A popup sign-in came without a valid handoff binding."));
  }
  const returnTo = params.get("returnTo") ?? returnToOfSignedOutPage(request.headers.get("referer"));
  const buffer = new CookieBuffer();
  try {
    // The language the member sees here: in the panel's popup, the panel's.
    const locale = popup?.locale ?? localeOfRequest(request);
    const authorizationUrl = await startLogin(requestResponseJar(request.cookies, buffer), returnTo, { popup, locale });
    logEvent("sign_in_started", { embedded: popup !== undefined }, "debug");
    return buffer.applyTo(NextResponse.redirect(authorizationUrl, 303));
  } catch (error) {
    // In the embedded panel's popup (a PAR endpoint that fails, say), "try again" stays the panel's sign-in.
    if (error instanceof AuthError && popup) error.popup = popup;
    return signInProblemRedirect(error);
  }
}
