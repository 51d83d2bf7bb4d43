import "server-only";

import * as oauth from "oauth4webapi";

import { SITE_BUSY } from "@/lib/contract/errors";
import { getConfig } from "@/lib/config";
import { processWide } from "@/lib/server/process-wide";
import { siteRequestOptions } from "@/lib/site/oauth-http";
import { isThrottledAnswer } from "@/lib/site/site-busy";

import { AuthError } from "./errors";

export interface SiteMetadata {
  as: oauth.AuthorizationServer;
  /**
   * The site issues id_tokens that can be relied on only when discovery lists both
   * `id_token_signing_alg_values_supported` and `jwks_uri` (docs/architecture.md section 6.4).
   */
  idTokenSupported: boolean;
  /** Which document was the authority: RFC 8414's, or OpenID Connect Discovery's when the site publishes only that one. */
  metadataSource: "oauth-authorization-server" | "openid-configuration";
}

/** Discovery is cached for a bounded time; a failure is cached briefly so a down site is not hammered. */
export const DISCOVERY_TTL_MS = 10 * 60 * 1000;
const FAILURE_TTL_MS = 5 * 1000;

/** One discovery per process, whichever Next.js bundle asks (the proxy, the pages, the route handlers). */
const discovered = processWide("site-metadata", () => ({
  cache: undefined as { expiresAt: number; result: Promise<SiteMetadata> } | undefined,
}));

async function fetchMetadata(algorithm: "oauth2" | "oidc", issuer: URL): Promise<oauth.AuthorizationServer> {
  const response = await oauth.discoveryRequest(issuer, { algorithm, ...siteRequestOptions() });
  return oauth.processDiscoveryResponse(issuer, response);
}

async function discover(): Promise<SiteMetadata> {
  // SITE_URL, or SITE_ISSUER when the site writes its issuer with a trailing "/" (the same well-known addresses).
  const expectedIssuer = getConfig().issuer;
  const issuer = new URL(expectedIssuer);
  let authority: oauth.AuthorizationServer;
  let metadataSource: SiteMetadata["metadataSource"] = "oauth-authorization-server";
  try {
    // RFC 8414: the authorization-server metadata is the authority for endpoints, grant types and scopes.
    authority = await fetchMetadata("oauth2", issuer);
  } catch (error) {
    if (!answeredNotFound(error)) {
      const busy = isThrottledAnswer(error) ? { detail: SITE_BUSY } : {};
      throw new AuthError("site_unavailable", "The site's authorization server metadata could not be read.", { cause: error, ...busy });
    }
    // A provider that publishes only OpenID Connect Discovery (RFC 8414 section 5 lets a site keep its
    // OpenID document): that one is the authority, under the same exact-issuer rule below.
    metadataSource = "openid-configuration";
    try {
      authority = await fetchMetadata("oidc", issuer);
    } catch (fallbackError) {
      throw new AuthError("site_unavailable", "The site publishes neither RFC 8414 nor OpenID Connect metadata.", { cause: fallbackError });
    }
  }
  // RFC 8414 section 3.3 and OpenID Connect Discovery 4.3: the issuer must be identical to the one the metadata was requested for.
  if (authority.issuer !== expectedIssuer) {
    throw new AuthError("site_misconfigured", `The site's metadata names a different issuer than SITE_URL (or SITE_ISSUER).`);
  }
  let openid: oauth.AuthorizationServer | undefined;
  if (metadataSource === "oauth-authorization-server") {
    try {
      openid = await fetchMetadata("oidc", issuer);
    } catch {
      openid = undefined; // OpenID configuration is optional: the dashboard then relies on UserInfo.
    }
  }
  const as: oauth.AuthorizationServer = { ...(openid?.issuer === expectedIssuer ? openid : {}), ...authority };
  const idTokenSupported = typeof as.jwks_uri === "string" && Array.isArray(as.id_token_signing_alg_values_supported);
  if (!as.authorization_endpoint || !as.token_endpoint) {
    throw new AuthError("site_misconfigured", "The site's metadata lacks the authorization or token endpoint.");
  }
  const foreign = endpointsOffOrigin(as);
  if (foreign.length > 0) {
    throw new AuthError("site_misconfigured", `The site's metadata names ${foreign.join(", ")} on an origin not configured.`, {
      detail: "endpoint_origin",
    });
  }
  return { as, idTokenSupported, metadataSource };
}

/** The metadata request was answered 404: the document does not exist (not "the site is down"). */
function answeredNotFound(error: unknown): boolean {
  return error instanceof oauth.OperationProcessingError && error.cause instanceof Response && error.cause.status === 404;
}

/** The endpoints the dashboard sends the client secret, codes or tokens to, or takes keys from. */
export const PINNED_ENDPOINTS = [
  "token_endpoint",
  "userinfo_endpoint",
  "revocation_endpoint",
  "jwks_uri",
  // RFC 9126: the push carries the client secret too.
  "pushed_authorization_request_endpoint",
] as const;

/**
 * The pinned endpoints the metadata puts on an origin other than SITE_URL's and not listed in
 * SITE_ENDPOINT_ORIGINS (RFC 9700 section 4.4 mix-up, RFC 8414 section 7.3; OWASP ASVS 5 V10.4): metadata is
 * checked for its issuer, but a tampered or misconfigured document could still send our secret elsewhere.
 */
export function endpointsOffOrigin(as: oauth.AuthorizationServer): string[] {
  const { siteUrl, siteEndpointOrigins } = getConfig();
  const allowed = new Set([new URL(siteUrl).origin, ...siteEndpointOrigins]);
  return PINNED_ENDPOINTS.filter((name) => {
    const value = as[name];
    if (typeof value !== "string") return false;
    return !URL.canParse(value) || !allowed.has(new URL(value).origin);
  });
}

/** The site's metadata, discovered once per DISCOVERY_TTL_MS. */
export function getSiteMetadata(now = Date.now()): Promise<SiteMetadata> {
  const { cache } = discovered;
  if (cache && cache.expiresAt > now) return cache.result;
  const result = discover();
  discovered.cache = { expiresAt: now + DISCOVERY_TTL_MS, result };
  result.catch(() => {
    if (discovered.cache?.result === result) discovered.cache = { expiresAt: Date.now() + FAILURE_TTL_MS, result };
  });
  return result;
}

/** Tests only. */
export function resetDiscoveryCacheForTests(): void {
  discovered.cache = undefined;
}
