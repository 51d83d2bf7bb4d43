import "server-only";

import * as oauth from "oauth4webapi";

import { getConfig } from "@/lib/config";
import { isLoopbackHost } from "@/lib/config/env-schema";
import { isThrottledAnswer } from "./site-busy";
import { siteFetchFor } from "./site-fetch";

type SiteRequestOptions = {
  [oauth.customFetch]: (url: string, options: oauth.CustomFetchOptions<string, oauth.ProtectedResourceRequestBody>) => Promise<Response>;
  [oauth.allowInsecureRequests]?: boolean;
};

/**
 * The options every oauth4webapi request to the site carries: the dashboard's one site fetch (a timeout
 * per call, the page view's deadline, a byte cap on the answer), and plain http only where the configuration
 * already restricted it to a loopback host (the local sandbox and tests).
 */
export function siteRequestOptions(): SiteRequestOptions {
  const site = new URL(getConfig().siteUrl);
  const options: SiteRequestOptions = {
    [oauth.customFetch]: siteFetchFor("oauth"),
  };
  if (site.protocol === "http:" && isLoopbackHost(site.hostname)) options[oauth.allowInsecureRequests] = true;
  return options;
}

/**
 * The members of a token response that may be left out (RFC 6749 section 5.1; `id_token`: OpenID Connect Core
 * 3.1.3.3 and 12.2). A site whose serializer writes every field of its response type writes `null` for one it has
 * no value for, which oauth4webapi refuses as not a string or a number: such a member is read as left out (a
 * renewal that keeps its refresh token, no id_token, the scope asked for, the default lifetime).
 */
const OPTIONAL_TOKEN_RESPONSE_MEMBERS = ["refresh_token", "expires_in", "scope", "id_token"] as const;

/** siteRequestOptions for the token endpoint: its 200 answer with the optional members written as null left out. */
export function tokenRequestOptions(): SiteRequestOptions {
  const options = siteRequestOptions();
  const fetchAtSite = options[oauth.customFetch];
  return { ...options, [oauth.customFetch]: async (url, init) => withoutNullOptionalMembers(await fetchAtSite(url, init)) };
}

async function withoutNullOptionalMembers(response: Response): Promise<Response> {
  if (response.status !== 200) return response;
  const answer = await jsonObjectOf(response);
  if (!answer || !OPTIONAL_TOKEN_RESPONSE_MEMBERS.some((member) => answer[member] === null)) return response;
  for (const member of OPTIONAL_TOKEN_RESPONSE_MEMBERS) if (answer[member] === null) delete answer[member];
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(answer), { status: response.status, statusText: response.statusText, headers });
}

/**
 * An answer's body as a JSON object, read from a copy (oauth4webapi reads the original): {} for JSON that is no
 * object, undefined when it is not JSON.
 */
export async function jsonObjectOf(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await response.clone().json();
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  } catch {
    return undefined;
  }
}

/** The client as oauth4webapi knows it: confidential, client_secret_post, ES256 id_tokens. */
export function oauthClient(): { client: oauth.Client; auth: oauth.ClientAuth } {
  const config = getConfig();
  return {
    client: { client_id: config.clientId, token_endpoint_auth_method: "client_secret_post", id_token_signed_response_alg: "ES256" },
    auth: oauth.ClientSecretPost(config.clientSecret),
  };
}

/**
 * RFC 6749 section 7.1 and RFC 6750: the dashboard sends tokens as Bearer only, so a token response of
 * another type (DPoP, MAC, anything else) is refused. oauth4webapi has lower-cased the value already,
 * so `Bearer` and `bEARER` are both accepted (RFC 6749 section 5.1: case-insensitive).
 */
export function isBearerTokenResponse(tokens: oauth.TokenEndpointResponse): boolean {
  return tokens.token_type.toLowerCase() === "bearer";
}

/** OAuth error codes by which a site says it is failing, not refusing (RFC 6749 section 4.1.2.1). */
const SITE_FAILING_OAUTH_ERRORS: ReadonlySet<string> = new Set(["server_error", "temporarily_unavailable"]);

/**
 * True for an answer by which the site says it is busy or failing, whatever else its status says: one that
 * says it limits how often it answers (429 Too Many Requests, RFC 6585 section 4, or a 403 with a wait or a
 * used-up rate limit: isThrottledAnswer), or an OAuth error body naming server_error or
 * temporarily_unavailable. It refuses nothing, so it is never read as a refused grant, token or client.
 */
export function isSiteBusyAnswer(error: unknown): boolean {
  if (error instanceof oauth.ResponseBodyError) return isThrottledAnswer(error) || SITE_FAILING_OAUTH_ERRORS.has(error.error);
  return error instanceof oauth.OperationProcessingError && error.cause instanceof Response && isThrottledAnswer(error.cause);
}

/**
 * The OAuth error a token endpoint named in a 200 answer that holds no access token, as some providers answer a
 * refused grant (GitHub's OAuth apps: `{"error":"bad_verification_code"}`) where RFC 6749 section 5.2 asks for
 * 400. oauth4webapi reads it as a token response without its `access_token` (INVALID_RESPONSE, with the body).
 */
export function errorNamedWith200(error: unknown): string | undefined {
  if (!(error instanceof oauth.OperationProcessingError) || error.code !== oauth.INVALID_RESPONSE) return undefined;
  const body = (error.cause as { body?: unknown } | null | undefined)?.body;
  if (typeof body !== "object" || body === null || "access_token" in body) return undefined;
  const named = (body as { error?: unknown }).error;
  return typeof named === "string" ? named : undefined;
}

/** True for errors that mean "the site did not answer properly" (network, timeout, 5xx, busy, garbage) rather than a refusal. */
export function isTransientSiteFailure(error: unknown): boolean {
  if (error instanceof oauth.ResponseBodyError) return error.status >= 500 || isSiteBusyAnswer(error);
  if (error instanceof oauth.WWWAuthenticateChallengeError) return false;
  if (error instanceof oauth.AuthorizationResponseError) return false;
  if (error instanceof oauth.UnsupportedOperationError) return false;
  // An error named with 200 refuses, unless it says the site is failing.
  const named = errorNamedWith200(error);
  if (named !== undefined) return SITE_FAILING_OAUTH_ERRORS.has(named);
  return true;
}

/**
 * The OAuth error code a token endpoint refused a grant with: in a 4xx error body (RFC 6749 section 5.2), or
 * named in a 200 answer (errorNamedWith200). Undefined when it did not refuse, or when the code it named
 * says the site is busy or failing (isTransientSiteFailure): that grant is unspent.
 */
export function tokenEndpointRefusal(error: unknown): string | undefined {
  const named = error instanceof oauth.ResponseBodyError ? error.error : errorNamedWith200(error);
  return named !== undefined && !isTransientSiteFailure(error) ? named : undefined;
}
