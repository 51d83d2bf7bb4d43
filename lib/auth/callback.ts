import "server-only";

import type { CookieJar } from "iron-session";
import * as oauth from "oauth4webapi";

import { getConfig } from "@/lib/config";
import { isLocale, type Locale } from "@/lib/i18n/locales";
import { newSessionId, type SessionData } from "@/lib/session/session";
import { getSharedState } from "@/lib/session/shared-state";
import {
  isBearerTokenResponse,
  isTransientSiteFailure,
  jsonObjectOf,
  oauthClient,
  tokenEndpointRefusal,
  tokenRequestOptions,
} from "@/lib/site/oauth-http";
import { SITE_BUSY } from "@/lib/contract/errors";
import { isThrottledAnswer } from "@/lib/site/site-busy";

import { getSiteMetadata } from "./discovery";
import { dpopOptions, sendOnceMoreOnDpopNonce } from "./dpop";
import { grantedScopesOf, missingNeededScopes } from "./granted-scopes";
import { createHandoff } from "./embedded-handoff";
import { AuthError, safeOAuthErrorCode } from "./errors";
import { verifyIdToken } from "./id-token";
import { accessTokenTimes } from "./token-times";
import { takeTransaction, TRANSACTION_TTL_SECONDS, type LoginTransaction } from "./transaction";
import { startNewSession } from "./new-session";
import { fetchUserInfoClaims, findClaimMismatch } from "./userinfo";

export interface CallbackResult {
  returnTo: string;
  session: SessionData;
  /** For a sign-in from the embedded dashboard: the one-time code the popup hands to the frame. */
  handoffCode?: string;
  /** With `handoffCode`: the panel's language, which the popup's last page speaks. */
  popupLocale?: Locale;
}

/**
 * Finishes a sign-in: the transaction for `state`, the authorization response (RFC 9207 `iss`, `state`),
 * the code exchange (client_secret_post, PKCE verifier, same redirect_uri and resource), the id_token or
 * UserInfo, then the session. Any failure throws an AuthError and leaves no session behind.
 */
export async function handleCallback(jar: CookieJar, callbackUrl: URL, userAgent?: string | null): Promise<CallbackResult> {
  const params = callbackUrl.searchParams;
  // RFC 6749 section 3.1: a parameter sent twice makes the response malformed (oauth4webapi lets a second `code` through).
  if (["state", "code", "iss"].some((name) => params.getAll(name).length > 1)) {
    throw new AuthError("login_state_mismatch", "The sign-in response repeats a parameter.", { detail: "repeated_parameter" });
  }
  const state = params.get("state");
  if (!state) throw new AuthError("login_state_mismatch", "The sign-in response carried no state.");
  // RFC 9700 section 4.7.1 (CSRF): the state must belong to a sign-in this browser started.
  const transaction = await takeTransaction(jar, state);
  if (!transaction) throw new AuthError("login_expired", "This sign-in attempt is unknown or has expired.");
  try {
    return await completeSignIn(jar, params, transaction, userAgent);
  } catch (error) {
    // A failure in the embedded panel's popup: the problem page's "try again" stays that panel's sign-in.
    if (error instanceof AuthError && transaction.popupBinding) {
      error.popup = { binding: transaction.popupBinding, locale: transaction.popupLocale ?? null };
    }
    throw error;
  }
}

async function completeSignIn(
  jar: CookieJar,
  params: URLSearchParams,
  transaction: LoginTransaction,
  userAgent: string | null | undefined,
): Promise<CallbackResult> {
  const config = getConfig();
  const { as, idTokenSupported } = await getSiteMetadata();
  const { client, auth } = oauthClient();
  let validated: URLSearchParams;
  try {
    // RFC 9207 section 2.4: `iss` is required when the metadata says it is supported, and compared exactly.
    validated = oauth.validateAuthResponse(as, client, params, transaction.state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      const code = safeOAuthErrorCode(error.error);
      throw new AuthError(code === "access_denied" ? "authorization_denied" : "authorization_failed", "The site did not grant access.", {
        cause: error,
        detail: code,
      });
    }
    if (error instanceof oauth.OperationProcessingError && error.code === oauth.INVALID_RESPONSE && issuerParameterWrong(params, as)) {
      throw new AuthError("issuer_mismatch", "The sign-in response did not come from the configured site.", { cause: error });
    }
    throw new AuthError("login_state_mismatch", "The sign-in response did not match this sign-in attempt.", { cause: error });
  }

  // RFC 9700 section 4.5 and RFC 6749 section 10.5: a callback is accepted once. Claimed only once the
  // authorization response is valid for this transaction, so a stranger holding a transaction cookie
  // (which /api/auth/login hands to anyone) cannot write to the shared state with made-up responses.
  if (!(await getSharedState().claim(`callback-state:${transaction.state}`, TRANSACTION_TTL_SECONDS * 1000))) {
    throw new AuthError("callback_replayed", "This sign-in response was already used.");
  }

  let tokens: oauth.TokenEndpointResponse;
  let idTokenClaims: Record<string, unknown> | null = null;
  /** The 200 answer's JSON object, read from a copy; undefined before it came or when it is not JSON. */
  let answered: Record<string, unknown> | undefined;
  const wantsIdToken = idTokenSupported && config.scopes.includes("openid");
  try {
    const options = {
      // RFC 8707 section 2.2: repeat the resource sent in the authorization request.
      additionalParameters: { resource: config.siteUrl },
      ...tokenRequestOptions(),
    };
    // RFC 9449 section 5: with a DPoP key, the exchange proves possession of it (one retry for a nonce).
    const requestOptions = transaction.dpopKey ? await dpopOptions(transaction.dpopKey, as.token_endpoint!, options) : options;
    const response = await sendOnceMoreOnDpopNonce(() =>
      oauth.authorizationCodeGrantRequest(as, client, auth, validated, config.redirectUri, transaction.codeVerifier, requestOptions),
    );
    if (response.status === 200) {
      answered = await jsonObjectOf(response);
      // RFC 6749 section 3.3: the site may grant less than asked. Without a scope the dashboard needs,
      // the member is told which one and offered to sign in again asking for it (never a security alarm).
      const granted = typeof answered?.scope === "string" ? answered.scope : undefined;
      const missing = missingNeededScopes(grantedScopesOf(granted, config.scopes));
      if (missing.length > 0) {
        throw new AuthError("scope_not_granted", "The member did not grant a scope the dashboard needs.", { detail: missing.join(" ") });
      }
    }
    // Not JSON, or no token response: processAuthorizationCodeResponse reports it.
    if (wantsIdToken && answered && typeof answered.access_token === "string") {
      idTokenClaims = await verifyIdTokenOf(answered.id_token, as, transaction.nonce);
    }
    tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      response,
      wantsIdToken ? { expectedNonce: transaction.nonce, requireIdToken: true } : undefined,
    );
  } catch (error) {
    throw toExchangeError(error, answered !== undefined);
  }
  // RFC 9449 section 5: a DPoP-bound token is accepted only when this sign-in asked for binding.
  const dpopBound = tokens.token_type.toLowerCase() === "dpop" && transaction.dpopKey !== undefined;
  if (!isBearerTokenResponse(tokens) && !dpopBound) throw tokenTypeRefused();
  const binding = dpopBound ? { dpopKey: transaction.dpopKey, tokenType: "DPoP" as const } : {};

  const claims = await fetchUserInfoClaims(as, tokens.access_token, binding);
  const grantedScopes = grantedScopesOf(tokens.scope, config.scopes);
  if (idTokenClaims) {
    const mismatch = findClaimMismatch(idTokenClaims, claims, grantedScopes);
    if (mismatch) {
      throw new AuthError("userinfo_mismatch", `UserInfo's ${mismatch} differs from the id_token's.`, { detail: mismatch });
    }
  }

  const now = Date.now();
  const session: SessionData = {
    v: 1,
    sid: newSessionId(),
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? null,
    ...accessTokenTimes(tokens.expires_in, now),
    // RFC 6749 section 5.1: an absent scope means the requested scope was granted.
    scopes: grantedScopes,
    claims,
    ...(idTokenClaims ? { idTokenNonce: transaction.nonce } : {}),
    ...(idTokenClaims && typeof tokens.id_token === "string" ? { idToken: tokens.id_token } : {}),
    // The key stays with the session (sealed): refreshes prove possession of it whatever the token type.
    ...(transaction.dpopKey ? { dpopKey: transaction.dpopKey } : {}),
    ...(dpopBound ? { tokenType: "DPoP" as const } : {}),
    createdAt: now,
    lastSeenAt: now,
  };
  if (transaction.popupBinding) {
    // The session belongs to the frame that opened this popup, not to the popup's own top-level context.
    return {
      returnTo: transaction.returnTo,
      session,
      handoffCode: await createHandoff(session, transaction.popupBinding),
      ...(isLocale(transaction.popupLocale) ? { popupLocale: transaction.popupLocale } : {}),
    };
  }
  await startNewSession(jar, session, "top", userAgent);
  return { returnTo: transaction.returnTo, session };
}

async function verifyIdTokenOf(idToken: unknown, as: oauth.AuthorizationServer, nonce: string): Promise<Record<string, unknown>> {
  if (typeof idToken !== "string") {
    throw new AuthError("id_token_invalid", "The site advertises id_tokens but sent none.", { detail: "missing" });
  }
  const config = getConfig();
  return verifyIdToken(idToken, { issuer: as.issuer, clientId: config.clientId, nonce, jwksUri: as.jwks_uri! });
}

/** A token response of a type other than Bearer (oauth4webapi itself refuses types it does not know). */
function tokenTypeRefused(cause?: unknown): AuthError {
  return new AuthError("token_exchange_failed", "The site issued a token type the dashboard does not use.", {
    cause,
    detail: "token_type",
  });
}

/**
 * RFC 9207 section 2.4: the authorization response's `iss` is wrong when it differs from the issuer, or
 * is missing where the metadata says it is sent. oauth4webapi reports both as INVALID_RESPONSE, like a
 * `state` mismatch: the parameters tell them apart.
 */
function issuerParameterWrong(params: URLSearchParams, as: oauth.AuthorizationServer): boolean {
  const iss = params.get("iss");
  return iss === null ? as.authorization_response_iss_parameter_supported === true : iss !== as.issuer;
}

/** oauth4webapi's UnsupportedOperationError for a token response (an unknown `token_type`) carries the response body. */
function hasTokenResponseBody(cause: unknown): boolean {
  return typeof cause === "object" && cause !== null && "body" in cause;
}

/** The codes oauth4webapi gives only to a JWT it could not accept (in the token response: the id_token). */
const JWT_FAILURE_CODES: ReadonlySet<string> = new Set([
  oauth.JWT_CLAIM_COMPARISON,
  oauth.JWT_TIMESTAMP_CHECK,
  oauth.KEY_SELECTION,
  oauth.PARSE_ERROR,
]);

/**
 * An id_token oauth4webapi refused: a JWT code, or an INVALID_RESPONSE about the JWT itself (its form or
 * claims, reported with the JWT or its claims), not about the token response's own fields (reported with its body).
 */
function isIdTokenFailure(error: oauth.OperationProcessingError): boolean {
  if (JWT_FAILURE_CODES.has(error.code ?? "")) return true;
  return error.code === oauth.INVALID_RESPONSE && typeof error.cause === "object" && error.cause !== null && !("body" in error.cause);
}

function toExchangeError(error: unknown, answeredJson: boolean): AuthError {
  if (error instanceof AuthError) return error;
  if (error instanceof oauth.OperationProcessingError && error.code === oauth.PARSE_ERROR && !answeredJson) {
    // The answer itself is not JSON (oauth4webapi gives a broken JWT the same code): no verdict on any token.
    return new AuthError("site_unavailable", "The site's token endpoint did not answer with JSON.", { cause: error, detail: "not_json" });
  }
  if (error instanceof oauth.UnsupportedOperationError && hasTokenResponseBody(error.cause)) return tokenTypeRefused(error);
  if (error instanceof oauth.ResponseBodyError && isTransientSiteFailure(error)) {
    // RFC 6585 section 4: a site that limits how often it answers (per client, so a class signing in at once meets it).
    const detail = isThrottledAnswer(error) ? SITE_BUSY : String(error.status);
    return new AuthError("site_unavailable", "The site's token endpoint failed.", { cause: error, detail });
  }
  // An OAuth error body, with a 4xx or (GitHub's OAuth apps' manner) a 200 naming it.
  const refusal = tokenEndpointRefusal(error);
  if (refusal !== undefined) {
    return new AuthError("token_exchange_failed", "The site refused to exchange the sign-in code.", {
      cause: error,
      detail: safeOAuthErrorCode(refusal),
    });
  }
  if (error instanceof oauth.OperationProcessingError && isIdTokenFailure(error)) {
    return new AuthError("id_token_invalid", "The id_token was rejected.", { cause: error, detail: "protocol" });
  }
  if (isTransientSiteFailure(error)) {
    const busy = isThrottledAnswer(error) ? { detail: SITE_BUSY } : {};
    return new AuthError("site_unavailable", "The site's token endpoint did not answer properly.", { cause: error, ...busy });
  }
  return new AuthError("token_exchange_failed", "The site's token response was not understood.", { cause: error });
}
