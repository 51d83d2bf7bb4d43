import { NextResponse, type NextRequest } from "next/server";

import { openEndSessionTicket } from "@/lib/auth/end-session";
import { appRedirect } from "@/lib/http/auth-redirects";
import { loggedRoute } from "@/lib/http/request-log";
import { logEvent } from "@/lib/log/logger";
import { API_ROUTES, signedOutPath } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

/**
 * After Sign out, the browser's way to the site's end-session endpoint (OpenID Connect RP-Initiated
 * Logout 1.0 section 2): the ticket the logout route answered holds that URL sealed, so its id_token_hint
 * travels in a redirect and never through the dashboard's JavaScript. It ends nothing itself (the session
 * ended at the logout POST), so a GET that anyone could send does no harm. A ticket that does not open
 * (changed, expired, not ours) lands on the signed-out page, which then claims nothing about the site.
 */
export const GET = loggedRoute(API_ROUTES.endSession, async (request: NextRequest) => {
  const endSessionUrl = await openEndSessionTicket(request.nextUrl.searchParams.get("ticket"));
  if (!endSessionUrl) {
    logEvent("unexpected_error", { code: "end_session_ticket_refused", message: "An end-session ticket did not open." }, "warn");
    return appRedirect(signedOutPath("signed_out"));
  }
  return NextResponse.redirect(endSessionUrl, 303);
});
