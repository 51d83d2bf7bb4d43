import "server-only";

import {
  createRemoteJWKSet,
  customFetch,
  errors as joseErrors,
  jwtVerify,
  type FlattenedJWSInput,
  type JWSHeaderParameters,
  type JWTPayload,
} from "jose";

import { isLoopbackHost } from "@/lib/config/env-schema";
import { processWide } from "@/lib/server/process-wide";
import { siteFailureOf } from "@/lib/site/site-call-policy";
import { SITE_CALL_TIMEOUT_MS } from "@/lib/site/site-deadline";
import { siteFetchFor } from "@/lib/site/site-fetch";

import { AuthError } from "./errors";
import { repeatsAJwtMemberName } from "./jwt-duplicate-names";

export const ID_TOKEN_CLOCK_TOLERANCE_SECONDS = 30;
/** docs/architecture.md section 6.4: id_tokens are valid 10 minutes. */
const ID_TOKEN_MAX_AGE_SECONDS = 10 * 60;

type RemoteKeySet = ReturnType<typeof createRemoteJWKSet>;

/**
 * How long jose waits after fetching the key set before an unknown `kid` may make it fetch again; also how
 * often an unknown `kid` may make us re-fetch (keyWithKid).
 */
const KEY_SET_COOLDOWN_MS = 30_000;

/** One site's key set, and the last time an unknown `kid` made it re-fetch. */
interface SiteKeySet {
  readonly keySet: RemoteKeySet;
  /** When an unknown `kid` last made the key set re-fetch, and that re-fetch (settled or still running). */
  lastUnknownKidRefetch?: { at: number; done: Promise<void> };
}

/** One key set per site and process, whichever Next.js bundle verifies (the callback's routes, the proxy's refresh). */
const keySets = processWide("id-token-key-sets", () => new Map<string, SiteKeySet>());

/**
 * The site's key set, chosen by `kid`. jose caches it, re-fetches it at most once per cooldown when a token
 * names an unknown `kid` (keyWithKid adds the re-fetch right after a rotation), and never follows redirects
 * to another place.
 */
function keySetFor(jwksUri: string): SiteKeySet {
  let siteKeySet = keySets.get(jwksUri);
  if (!siteKeySet) {
    const url = new URL(jwksUri);
    if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
      throw new AuthError("site_misconfigured", "The site's jwks_uri does not use https.");
    }
    const keySet = createRemoteJWKSet(url, {
      timeoutDuration: SITE_CALL_TIMEOUT_MS,
      cooldownDuration: KEY_SET_COOLDOWN_MS,
      cacheMaxAge: 10 * 60_000,
      [customFetch]: siteFetchFor("jwks"),
    });
    siteKeySet = { keySet };
    keySets.set(jwksUri, siteKeySet);
  }
  return siteKeySet;
}

export interface IdTokenExpectations {
  issuer: string;
  clientId: string;
  /** The nonce sent with the sign-in; none for an id_token from a refresh (OpenID Connect Core 12.2). */
  nonce?: string;
  jwksUri: string;
  /** For a refreshed id_token: the session's subject, which it must repeat (OpenID Connect Core 12.2). */
  subject?: string;
  /**
   * For a refreshed id_token: the nonce of the sign-in's id_token. A refreshed id_token need not carry a
   * nonce, but one it carries must equal this (OpenID Connect Core 12.2).
   */
  originalNonce?: string;
}

/**
 * Validates the id_token ourselves (OpenID Connect Core 3.1.3.7): ES256 only (no `none`, no HS256 signed
 * with the client secret, no RS256), the key chosen by `kid` from the site's jwks_uri, `iss` exact,
 * `aud` equal to our client_id with no other audience, `exp` with a small skew, `iat` not in the
 * future, and `nonce` equal to the one we sent.
 */
export async function verifyIdToken(idToken: string, expected: IdTokenExpectations): Promise<JWTPayload & { sub: string }> {
  // RFC 7519 section 4, RFC 7515 section 4: a repeated claim or header name is refused, not read as its last value.
  if (repeatsAJwtMemberName(idToken)) {
    throw new AuthError("id_token_invalid", "The id_token was rejected: it repeats a claim or header name.", { detail: "duplicate_name" });
  }
  let payload: JWTPayload;
  try {
    const siteKeySet = keySetFor(expected.jwksUri);
    ({ payload } = await jwtVerify(idToken, (header, token) => keyWithKid(siteKeySet, header, token), {
      algorithms: ["ES256"],
      issuer: expected.issuer,
      audience: expected.clientId,
      clockTolerance: ID_TOKEN_CLOCK_TOLERANCE_SECONDS,
      maxTokenAge: ID_TOKEN_MAX_AGE_SECONDS + ID_TOKEN_CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ["iss", "aud", "exp", "iat", "sub", ...(expected.nonce === undefined ? [] : ["nonce"])],
    }));
  } catch (error) {
    if (error instanceof AuthError) throw error; // a jwks_uri refused before any request (keySetFor)
    if (isKeySetUnreadable(error)) {
      // No verdict on the token: the site did not serve its keys. The id_token is refused all the same (fail
      // closed), but the member and the operator are told what happened: the site is unavailable, not the
      // token forged or broken.
      throw new AuthError("site_unavailable", "The site's key set (jwks_uri) could not be read.", { cause: error, detail: "jwks" });
    }
    const reason = describeJoseError(error);
    throw new AuthError("id_token_invalid", `The id_token was rejected: ${reason}.`, { cause: error, detail: reason });
  }
  // OpenID Connect Core 3.1.3.7 step 3: the client must reject an id_token with an audience it does not trust.
  if (Array.isArray(payload.aud) && (payload.aud.length !== 1 || payload.aud[0] !== expected.clientId)) {
    throw new AuthError("id_token_invalid", "The id_token was rejected: it names other audiences.", { detail: "aud" });
  }
  // OpenID Connect Core 3.1.3.7 step 5: an authorized party, when present, must be this client.
  if (payload.azp !== undefined && payload.azp !== expected.clientId) {
    throw new AuthError("id_token_invalid", "The id_token was rejected: it was issued to another party (azp).", { detail: "azp" });
  }
  // OpenID Connect Core 3.1.3.7 step 11: nonce must equal the value sent in the authorization request.
  if (expected.nonce !== undefined && payload.nonce !== expected.nonce) {
    throw new AuthError("id_token_invalid", "The id_token was rejected: nonce mismatch.", { detail: "nonce" });
  }
  if (typeof payload.sub !== "string" || payload.sub.length === 0) {
    throw new AuthError("id_token_invalid", "The id_token was rejected: no subject.", { detail: "sub" });
  }
  // OpenID Connect Core 12.2: a nonce in a refreshed id_token must be the one of the sign-in's id_token.
  if (expected.nonce === undefined && payload.nonce !== undefined && payload.nonce !== expected.originalNonce) {
    throw new AuthError("id_token_invalid", "The refreshed id_token carries another nonce than the sign-in's.", { detail: "nonce" });
  }
  // OpenID Connect Core 12.2: a refreshed id_token describes the same member as the session's.
  if (expected.subject !== undefined && payload.sub !== expected.subject) {
    throw new AuthError("id_token_invalid", "The refreshed id_token names another member.", { detail: "sub" });
  }
  return payload as JWTPayload & { sub: string };
}

/**
 * The key for the token's `kid`. Our profile requires `kid` (OIDF oidcc-client-test-kid-absent-multiple-jwks,
 * the stricter choice; OpenID Connect Core 10.1): without it, jose would try every key of the set in turn.
 *
 * OpenID Connect Core 10.1.1: a site rotates its signing key by publishing the new one at jwks_uri, and a
 * verifier that sees a `kid` it does not know goes back to jwks_uri. jose does so only when it last fetched
 * the set more than a cooldown ago, so a sign-in right after a rotation, moments after the set was fetched
 * for another sign-in, would fail for up to 30 seconds. Here an unknown `kid` makes the set re-fetch
 * (jose's own `reload()`) even while jose cools down, but at most once per cooldown in all, counting jose's
 * own re-fetches (security checklist 33): a site that keeps naming unknown kids cannot make us fetch more.
 * A `kid` still unknown after the re-fetch is refused, as is every unknown `kid` until the next one may.
 */
async function keyWithKid(site: SiteKeySet, header: JWSHeaderParameters, token: FlattenedJWSInput) {
  if (typeof header.kid !== "string" || header.kid === "") throw new joseErrors.JWKSNoMatchingKey("The id_token names no kid.");
  // Not cooling down, jose itself fetches the set during this call (a stale cache, or an unknown kid).
  const joseMayFetch = !site.keySet.coolingDown;
  try {
    return await site.keySet(header, token);
  } catch (error) {
    if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
    const now = Date.now();
    if (joseMayFetch) {
      site.lastUnknownKidRefetch = { at: now, done: Promise.resolve() };
      throw error;
    }
    const last = site.lastUnknownKidRefetch;
    if (last && now - last.at < KEY_SET_COOLDOWN_MS) {
      // Another sign-in's re-fetch, maybe still running (two sign-ins right after a rotation): look once more
      // when it is done, without fetching again. If that re-fetch failed, the kid is not known to be
      // unpublished: the answer is that failure (the site is unavailable), not a refusal of the token.
      const failedRefetch = await last.done.then(
        () => undefined,
        (failure: unknown) => ({ failure }),
      );
      try {
        return await site.keySet(header, token);
      } catch (stillUnknown) {
        throw failedRefetch && stillUnknown instanceof joseErrors.JWKSNoMatchingKey ? failedRefetch.failure : stillUnknown;
      }
    }
    const done = site.keySet.reload();
    site.lastUnknownKidRefetch = { at: now, done };
    await done;
    return await site.keySet(header, token);
  }
}

/**
 * jose's codes for a key set it could not fetch or read (jose/dist/webapi/jwks/remote.js and local.js): no
 * answer in time, an answer other than 200, not JSON, or not a JWK Set. A key set that was read but holds
 * no key for the token is a verdict on the token instead (JWKSNoMatchingKey).
 */
const KEY_SET_READ_FAILURES: ReadonlySet<string> = new Set([
  joseErrors.JWKSTimeout.code,
  joseErrors.JWKSInvalid.code,
  joseErrors.JOSEError.code,
]);

/** True when the key set could not be had: the site's fetch failed (timeout, unreachable, too large) or jose could not read it. */
function isKeySetUnreadable(error: unknown): boolean {
  if (siteFailureOf(error)) return true;
  return error instanceof joseErrors.JOSEError && KEY_SET_READ_FAILURES.has(error.code);
}

/** A short reason keyword: the failed claim's name, or what was wrong with the signature. */
function describeJoseError(error: unknown): string {
  // A token too old by its iat (maxTokenAge) is "expired" to jose too, but names the claim that failed.
  if (error instanceof joseErrors.JWTExpired || error instanceof joseErrors.JWTClaimValidationFailed) return error.claim;
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return "alg";
  if (error instanceof joseErrors.JWKSNoMatchingKey) return "kid";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return "signature";
  if (error instanceof joseErrors.JOSENotSupported) return "alg";
  return "malformed";
}
