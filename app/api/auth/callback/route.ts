import type { NextRequest } from "next/server";

import { getConfig } from "@/lib/config";
import { handleCallback } from "@/lib/auth/callback";
import { popupOfTransaction } from "@/lib/auth/transaction";
import { appRedirect, signInProblemRedirect } from "@/lib/http/auth-redirects";
import { rateLimitRefusal } from "@/lib/http/rate-limit";
import { CookieBuffer, readOnlyJar, requestResponseJar } from "@/lib/session/cookie-jar";
import { loggedRoute } from "@/lib/http/request-log";
import { logEvent } from "@/lib/log/logger";
import { API_ROUTES, PAGE_PATHS } from "@/lib/contract/paths";
import { popupPagePath } from "@/lib/i18n/locales";

export const dynamic = "force-dynamic";

export const GET = loggedRoute(API_ROUTES.callback, handleGet);

async function handleGet(request: NextRequest) {
  // Past a limit, the sign-in ends on its problem page, which says how long to wait (DESIGN: never a JSON page),
  // in the panel's popup still as that popup's page: its "try again" stays the panel's sign-in.
  const refusal = await rateLimitRefusal(request);
  if (refusal) {
    const popup = await popupOfTransaction(readOnlyJar(request.cookies), request.nextUrl.searchParams.get("state"));
    if (popup) refusal.popup = popup;
    return signInProblemRedirect(refusal);
  }
  const buffer = new CookieBuffer();
  // The URL is rebuilt from configuration: nothing is derived from the Host header (docs/architecture.md section 3).
  const callbackUrl = new URL(getConfig().redirectUri);
  callbackUrl.search = request.nextUrl.search;
  try {
    const { returnTo, handoffCode, popupLocale } = await handleCallback(
      requestResponseJar(request.cookies, buffer),
      callbackUrl,
      request.headers.get("user-agent"),
    );
    logEvent("sign_in_succeeded", { embedded: handoffCode !== undefined });
    // A popup sign-in for the embedded dashboard: the code goes in the fragment, never to a server or a log.
    if (handoffCode) return buffer.applyTo(appRedirect(`${popupPagePath(PAGE_PATHS.popupDone, popupLocale)}#handoff=${handoffCode}`));
    return buffer.applyTo(appRedirect(returnTo));
  } catch (error) {
    return buffer.applyTo(signInProblemRedirect(error));
  }
}
