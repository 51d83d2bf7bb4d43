import "server-only";

import type { CookieJar } from "iron-session";
import * as oauth from "oauth4webapi";

import { getConfig } from "@/lib/config";
import { uiLocalesForSite, type Locale } from "@/lib/i18n/locales";

import { getSiteMetadata } from "./discovery";
import { dpopThumbprint, newDpopKey, shouldBindTokens } from "./dpop";
import type { PopupSignIn } from "./embedded-handoff";
import { pushAuthorizationRequest, usesPushedAuthorization } from "./par";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { sanitizeReturnTo } from "@/lib/contract/return-to";
import { saveTransaction } from "./transaction";

/** What a sign-in starts with beyond where it returns: the panel's popup, the member's language. */
export interface LoginOptions {
  popup?: PopupSignIn | undefined;
  /** The member's language, asked of the site's sign-in and consent pages where the site speaks several. */
  locale?: Locale | undefined;
}

/**
 * Starts a sign-in: a PKCE S256 verifier, `state`, `nonce` and `resource` (RFC 9700 section 2.1.1,
 * RFC 7636, OpenID Connect Core 3.1.2.1, RFC 8707 section 2), kept in a per-login transaction cookie.
 * Returns the authorization URL to send the browser to.
 */
export async function startLogin(jar: CookieJar, requestedReturnTo: string | null, { popup, locale }: LoginOptions = {}): Promise<URL> {
  const config = getConfig();
  const { as } = await getSiteMetadata();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const parameters = new URLSearchParams({
    response_type: "code",
    client_id: config.clientId,
    redirect_uri: config.redirectUri,
    scope: config.scopes.join(" "),
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
    resource: config.siteUrl,
  });
  // OpenID Connect Core 3.1.2.1 `ui_locales`: the member's language for the site's own pages, asked only of
  // a site that lists the languages they speak (RFC 8414 section 2, `ui_locales_supported`).
  const uiLocales = uiLocalesForSite(locale, as.ui_locales_supported);
  if (uiLocales) parameters.set("ui_locales", uiLocales);
  // RFC 9449 section 10: the authorization code is bound to this session's key (dpop_jkt).
  const dpopKey = shouldBindTokens(as) ? await newDpopKey() : undefined;
  if (dpopKey) parameters.set("dpop_jkt", await dpopThumbprint(dpopKey));
  let url: URL;
  if (usesPushedAuthorization(as)) {
    // RFC 9126: pushed before anything is kept, so a failed push leaves no transaction behind.
    url = await pushAuthorizationRequest(as, parameters, dpopKey);
  } else {
    url = new URL(as.authorization_endpoint!);
    for (const [name, value] of parameters) url.searchParams.set(name, value);
  }
  await saveTransaction(jar, {
    state,
    codeVerifier,
    nonce,
    returnTo: sanitizeReturnTo(requestedReturnTo, config.appUrl),
    createdAt: Date.now(),
    ...(popup ? { popupBinding: popup.binding, ...(popup.locale ? { popupLocale: popup.locale } : {}) } : {}),
    ...(dpopKey ? { dpopKey } : {}),
  });
  return url;
}

/**
 * The `returnTo` in the address of this dashboard's signed-out page, when a sign-in came from its Sign in
 * link. That page is prerendered, so the link carries its `returnTo` only once the page's scripts have run;
 * tapped before (a phone still loading them), it comes without one, and its page's address arrives as the
 * Referer instead (the link's referrerPolicy "same-origin", components/layout/signed-out-landing.tsx).
 * Any other Referer gives null; the value is then checked like any other (sanitizeReturnTo).
 */
export function returnToOfSignedOutPage(referer: string | null): string | null {
  if (!referer || !URL.canParse(referer)) return null;
  const page = new URL(referer);
  if (page.origin !== new URL(getConfig().appUrl).origin || page.pathname !== PAGE_PATHS.signedOut) return null;
  return page.searchParams.get("returnTo");
}

/** Browser and framework prefetches must not start a sign-in (they would set a transaction cookie). */
export function isPrefetch(headers: Headers): boolean {
  const purpose = `${headers.get("sec-purpose") ?? ""} ${headers.get("purpose") ?? ""}`.toLowerCase();
  return purpose.includes("prefetch") || headers.has("next-router-prefetch") || headers.get("x-middleware-prefetch") === "1";
}
