/**
 * Signed-in members for the benchmark: dashboard sessions obtained through the dashboard's own routes
 * (as a browser would), and a hand-rolled client's token for the direct side of each ratio.
 */
import * as oauth from "oauth4webapi";

import { SetCookieJar as Cookies } from "../../sandbox/cookie-jar";
import { SEEDED_DASHBOARD_CLIENT } from "../../sandbox/seed";
import { authorizeWithoutBrowser } from "../../sandbox/testing";

export interface BenchTarget {
  /** The dashboard, as the browser knows it (APP_URL). */
  appUrl: string;
  /** The same dashboard over IPv4 loopback, so name resolution of "localhost" does not weigh on one side only. */
  appUrlIPv4: string;
  siteUrl: string;
}

/** A browser's cookies: the one jar of the tests and the sandbox helpers. */
export { Cookies };

export async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not come up in time`);
}

/** Signs in through the dashboard's own routes, as a browser would; returns its cookies. */
export async function signInToDashboard(target: BenchTarget, email: string): Promise<Cookies> {
  const cookies = new Cookies();
  const login = await fetch(`${target.appUrl}/api/auth/login?returnTo=/`, { redirect: "manual" });
  cookies.absorb(login);
  const redirect = await authorizeWithoutBrowser(login.headers.get("location")!, { email });
  const callback = await fetch(`${target.appUrl}/api/auth/callback${redirect.search}`, {
    redirect: "manual",
    headers: { cookie: cookies.header() },
  });
  cookies.absorb(callback);
  if (callback.status !== 303 || !callback.headers.get("location")?.endsWith("/")) throw new Error("sign-in for the benchmark failed");
  return cookies;
}

/** A hand-rolled client's token for the same member: the baseline talks to the site directly. */
export async function directAccessToken(target: BenchTarget, email: string): Promise<string> {
  const issuer = new URL(target.siteUrl);
  const options = { [oauth.allowInsecureRequests]: true };
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...options }));
  const client: oauth.Client = { client_id: SEEDED_DASHBOARD_CLIENT.clientId };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const redirectUri = `${target.appUrl}/api/auth/callback`;
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope: "account:read",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    resource: target.siteUrl,
  }).toString();
  const callback = await authorizeWithoutBrowser(url.href, { email });
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.ClientSecretPost(SEEDED_DASHBOARD_CLIENT.clientSecret),
    params,
    redirectUri,
    verifier,
    {
      additionalParameters: { resource: target.siteUrl },
      ...options,
    },
  );
  return (await oauth.processAuthorizationCodeResponse(as, client, response)).access_token;
}
