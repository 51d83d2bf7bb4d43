import "server-only";

import { NextResponse } from "next/server";

import { getConfig } from "@/lib/config";
import { isValidBinding } from "@/lib/auth/embedded-handoff";
import { AuthError } from "@/lib/auth/errors";
import { isLocale, POPUP_LOCALE_PARAM } from "@/lib/i18n/locales";
import { logEvent } from "@/lib/log/logger";
import { countSignInFailed } from "@/lib/metrics/record";
import { isSharedStateUnavailable } from "@/lib/session/shared-state";
import { SITE_BUSY } from "@/lib/contract/errors";
import { siteRetryAfterSeconds, unavailableForSeconds } from "@/lib/site/site-busy";

import { logFailure } from "./error-responses";
import { PAGE_PATHS, RETRY_AFTER_PARAM } from "@/lib/contract/paths";

/** Where every sign-in failure ends: a readable page, identified by our stable code, never the site's text. */
export function signInProblemRedirect(error: unknown): NextResponse {
  const code = signInFailureCode(error);
  logFailure(error, code, code === "rate_limited" ? "rate_limited" : "sign_in_failed");
  countSignInFailed(code);
  const url = new URL(PAGE_PATHS.signInProblem, getConfig().appUrl);
  url.searchParams.set("code", code);
  if (error instanceof AuthError && error.detail) url.searchParams.set("detail", error.detail);
  // How long the member waits before trying again (our rate limit, the wait a busy site named, or the one a site
  // down for a while named on its 503): the page says it.
  const wait =
    error instanceof AuthError
      ? (error.retryAfterSeconds ?? (error.detail === SITE_BUSY ? siteRetryAfterSeconds(error) : unavailableForSeconds(error)))
      : undefined;
  if (wait !== undefined) url.searchParams.set(RETRY_AFTER_PARAM, String(wait));
  // The binding is the hash the panel's popup sign-in already carried in its URL; never the verifier.
  const popup = error instanceof AuthError ? error.popup : undefined;
  if (popup && isValidBinding(popup.binding)) {
    url.searchParams.set("binding", popup.binding);
    if (isLocale(popup.locale)) url.searchParams.set(POPUP_LOCALE_PARAM, popup.locale);
  }
  return NextResponse.redirect(url, 303);
}

/** Our stable code for why a sign-in failed. */
function signInFailureCode(error: unknown): string {
  return error instanceof AuthError ? error.code : isSharedStateUnavailable(error) ? "temporarily_unavailable" : "unexpected";
}

/**
 * Counts a sign-in that failed where no sign-in problem page is shown (the embedded frame's handoff, whose
 * frame reads the status alone) and throws the error on to the route's answer.
 */
export function rethrowCountedSignInFailure(error: unknown): never {
  countSignInFailed(signInFailureCode(error));
  throw error;
}

/**
 * A 303 to a page of the dashboard. A target whose origin is not APP_URL is refused (OWASP ASVS 5
 * V3.7.2, RFC 9700 section 4.11.1): whatever produced it, the member lands on the overview instead.
 */
export function appRedirect(path: string): NextResponse {
  const { appUrl } = getConfig();
  const base = new URL(appUrl);
  const target = new URL(path, base);
  if (target.origin !== base.origin) {
    logEvent("unexpected_error", { code: "redirect_refused", message: "A redirect to another origin was refused." }, "warn");
    return NextResponse.redirect(new URL("/", base), 303);
  }
  return NextResponse.redirect(target, 303);
}
