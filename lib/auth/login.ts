import "server-only";

import type { CookieJar } from "iron-session";
import * as oauth from "oauth4webapi";

import { getConfig } from "@/lib/config";

import { getSiteMetadata } from "./discovery";
import { sanitizeReturnTo } from "./return-to";
import { saveTransaction } from "./transaction";

/**
 * Starts a sign-in: a PKCE S256 verifier, `state`, `nonce` and `resource` (RFC 9700 section 2.1.1,
 * RFC 7636, OpenID Connect Core 3.1.2.1, RFC 8707 section 2), kept in a per-login transaction cookie.
 * Returns the authorization URL to send the browser to.
 */
export async function startLogin(jar: CookieJar, requestedReturnTo: string | null, popupBinding?: string): Promise<URL> {
  const config = getConfig();
  const { as } = await getSiteMetadata();
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  await saveTransaction(jar, {
    state,
    codeVerifier,
    nonce,
    returnTo: sanitizeReturnTo(requestedReturnTo, config.appUrl),
    createdAt: Date.now(),
    ...(popupBinding ? { popupBinding } : {}),
  });
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", config.clientId);
  url.searchParams.set("redirect_uri", config.redirectUri);
  url.searchParams.set("scope", config.scopes.join(" "));
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("nonce", nonce);
  url.searchParams.set("resource", config.siteUrl);
  return url;
}

/** Browser and framework prefetches must not start a sign-in (they would set a transaction cookie). */
export function isPrefetch(headers: Headers): boolean {
  const purpose = `${headers.get("sec-purpose") ?? ""} ${headers.get("purpose") ?? ""}`.toLowerCase();
  return purpose.includes("prefetch") || headers.has("next-router-prefetch") || headers.get("x-middleware-prefetch") === "1";
}
