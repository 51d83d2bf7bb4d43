import "server-only";

import { sealData, unsealData } from "iron-session";
import * as oauth from "oauth4webapi";
import { createHash } from "node:crypto";

import { getConfig } from "@/lib/config";
import { logEvent } from "@/lib/log/logger";
import { openingPasswords, sealingPassword, type SessionData } from "@/lib/session/session";
import { getSharedState } from "@/lib/session/shared-state";
import { siteFailureDetails } from "@/lib/site/failure-details";

import { getSiteMetadata } from "./discovery";
import { AuthError, safeOAuthErrorCode } from "./errors";
import { isTransientSiteFailure, oauthClient, siteRequestOptions } from "./site-http";

/** Refresh this long before the access token expires, so no request goes out with a token about to lapse. */
export const REFRESH_MARGIN_MS = 60_000;
/**
 * How long "refresh token R was just rotated into R'" is remembered: long enough for requests that left
 * the browser with the pre-rotation cookie to find the new tokens instead of replaying R (which a
 * rotating site answers with invalid_grant and a revoked grant, site-access-api.md via DESIGN.md section 6).
 */
export const ROTATION_MEMORY_MS = 2 * 60_000;
const DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

interface RotatedTokens {
  accessToken: string;
  refreshToken: string | null;
  accessTokenExpiresAt: number;
  scopes: string[];
}

function fingerprint(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}


async function refreshAtSite(refreshToken: string, previousScopes: string[]): Promise<RotatedTokens> {
  const config = getConfig();
  const { as } = await getSiteMetadata();
  const { client, auth } = oauthClient();
  let tokens: oauth.TokenEndpointResponse;
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, {
      // RFC 8707 section 2.2: the refreshed token stays bound to the site.
      additionalParameters: { resource: config.siteUrl },
      ...siteRequestOptions(),
    });
    tokens = await oauth.processRefreshTokenResponse(as, client, response);
  } catch (error) {
    logEvent("refresh_failed", { ...siteFailureDetails(error) }, "warn");
    if (error instanceof oauth.ResponseBodyError && error.status < 500) {
      // RFC 6749 section 5.2: invalid_grant means the grant is gone (revoked, expired, or a replayed rotation).
      throw new AuthError("session_ended", "The site no longer accepts this sign-in.", { cause: error, detail: safeOAuthErrorCode(error.error) });
    }
    if (isTransientSiteFailure(error)) {
      throw new AuthError("refresh_unavailable", "The site could not renew access right now.", { cause: error });
    }
    throw new AuthError("session_ended", "The site's renewal answer was not acceptable.", { cause: error });
  }
  logEvent("token_refreshed", { refreshTokenRotated: tokens.refresh_token !== undefined });
  return {
    accessToken: tokens.access_token,
    // RFC 9700 section 4.14.2: a rotating site returns a new refresh token; keep the old one only if it did not.
    refreshToken: tokens.refresh_token ?? refreshToken,
    accessTokenExpiresAt: Date.now() + (tokens.expires_in ?? DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS) * 1000,
    scopes: tokens.scope ? tokens.scope.split(" ").filter(Boolean) : previousScopes,
  };
}

/**
 * Refreshes once per refresh token, whatever the number of parallel callers: the first runs the grant,
 * the others share its result; later callers still holding the pre-rotation cookie find the rotated
 * tokens in the shared memory instead of replaying the spent refresh token.
 */
async function rotate(refreshToken: string, scopes: string[]): Promise<RotatedTokens> {
  const store = getSharedState();
  const key = fingerprint(refreshToken);
  const remembered = await store.recall(`rotated:${key}`);
  if (remembered) return unsealData<RotatedTokens>(remembered, { password: openingPasswords(), ttl: 0 });
  return store.singleFlight(`refresh:${key}`, async () => {
    const again = await store.recall(`rotated:${key}`);
    if (again) return unsealData<RotatedTokens>(again, { password: openingPasswords(), ttl: 0 });
    const rotated = await refreshAtSite(refreshToken, scopes);
    // Sealed, because a shared store (Redis) must never hold tokens in the clear.
    await store.remember(`rotated:${key}`, await sealData(rotated, { password: sealingPassword(), ttl: 0 }), ROTATION_MEMORY_MS);
    return rotated;
  });
}

export interface FreshSession {
  session: SessionData;
  /** True when the tokens changed and the session cookie must be written back. */
  changed: boolean;
}

/**
 * The one function that returns a valid access token for a data request. It refreshes shortly before
 * expiry (or when `force` says the site just refused the token), single-flight per refresh token.
 */
export async function ensureFreshTokens(session: SessionData, options: { force?: boolean; now?: number } = {}): Promise<FreshSession> {
  const now = options.now ?? Date.now();
  if (!options.force && session.accessTokenExpiresAt - now > REFRESH_MARGIN_MS) return { session, changed: false };
  if (!session.refreshToken) {
    if (!options.force && session.accessTokenExpiresAt > now) return { session, changed: false };
    throw new AuthError("session_ended", "The access token expired and the site gave no refresh token.");
  }
  const rotated = await rotate(session.refreshToken, session.scopes);
  if (options.force && rotated.accessToken === session.accessToken) {
    throw new AuthError("session_ended", "The site refused an access token that was just issued.");
  }
  return { session: { ...session, ...rotated }, changed: true };
}
