/**
 * The token endpoint: authorization_code (PKCE S256, single-use 60-second codes, redirect_uri and resource
 * matching) and refresh_token (rotation with replay detection), plus the ES256 id_token.
 */
import { createHash } from "node:crypto";
import type { Context, Hono } from "hono";
import { SignJWT } from "jose";
import { authenticateClient, leftOut, NO_STORE_HEADERS, OAuthFailure, oauthError, readForm } from "./http-util";
import { findMemberById, MEMBER_ONLY_SCOPES, SCHOOL } from "./seed";
import { checkDpopProof, offerDpopNonce, tokenEndpointProofRefusal } from "./dpop";
import { userInfoClaims } from "./userinfo";
import type { SandboxClient } from "./seed";
import { acceptedResources, issuerIdentifier } from "./state";
import type { SandboxState } from "./state";
import { AUTHORIZATION_CODE_TTL_MS, randomToken, safeEqual } from "./store";
import type { AccessTokenRecord, Grant, RefreshTokenRecord } from "./store";

const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;
export const ID_TOKEN_TTL_SECONDS = 600;

function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

function issueAccessToken(state: SandboxState, grant: Grant, scopes: string[], resource: string, dpopJkt?: string): AccessTokenRecord {
  const now = state.now();
  const padding = state.knobs.accessTokenPadding;
  const pad = padding > 0 ? randomToken(Math.ceil((padding * 3) / 4) + 3).slice(0, padding) : "";
  const record: AccessTokenRecord = {
    token: `sat_${randomToken()}${pad}`,
    grantId: grant.id,
    clientId: grant.clientId,
    memberId: grant.memberId,
    scopes,
    resource,
    ...(dpopJkt === undefined ? {} : { dpopJkt }),
    issuedAt: now,
    expiresAt: now + state.knobs.accessTokenTtlSeconds * 1000,
    revokedAt: undefined,
  };
  state.store.accessTokens.set(record.token, record);
  return record;
}

function issueRefreshToken(state: SandboxState, grant: Grant): RefreshTokenRecord {
  const now = state.now();
  const record: RefreshTokenRecord = {
    token: `srt_${randomToken()}`,
    grantId: grant.id,
    clientId: grant.clientId,
    memberId: grant.memberId,
    scopes: grant.scopes,
    issuedAt: now,
    expiresAt: now + state.knobs.refreshTokenTtlSeconds * 1000,
    status: "active",
  };
  state.store.refreshTokens.set(record.token, record);
  return record;
}

async function signIdToken(state: SandboxState, grant: Grant, nonce: string | undefined): Promise<string> {
  const member = findMemberById(grant.memberId);
  if (!member) throw new OAuthFailure("invalid_grant", "The member of this grant no longer exists");
  // The key that signs now: after a rotation, the new one (signing-keys.ts).
  const key = state.signingKeys.signing;
  const iat = Math.floor(state.now() / 1000);
  // Knob idTokenSubjectOnly: the member's other claims come from UserInfo alone (OpenID Connect Core 5.4).
  const claims: Record<string, unknown> = state.knobs.idTokenSubjectOnly ? { sub: member.id } : userInfoClaims(state, member, grant.scopes);
  if (nonce !== undefined) claims.nonce = nonce;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
    .setIssuer(issuerIdentifier(state))
    .setAudience(grant.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ID_TOKEN_TTL_SECONDS)
    .sign(key.privateKey);
}

function tokenResponse(state: SandboxState, access: AccessTokenRecord, refresh: RefreshTokenRecord | undefined, idToken?: string) {
  return {
    access_token: access.token,
    // RFC 9449 section 5: a token bound to a DPoP key is of type DPoP.
    token_type: access.dpopJkt === undefined ? "Bearer" : "DPoP",
    expires_in: lifetimeAsWritten(state, Math.round((access.expiresAt - access.issuedAt) / 1000)),
    ...(refresh === undefined ? leftOut(state, ["refresh_token"]) : { refresh_token: refresh.token }),
    // RFC 6749 section 3.3 delimits scopes with spaces; the `commaScopes` knob writes them as GitHub's OAuth apps do.
    scope: access.scopes.join(state.knobs.commaScopes ? "," : " "),
    created_at: Math.floor(access.issuedAt / 1000),
    school_id: SCHOOL.schoolId,
    school_subdomain: SCHOOL.subdomain,
    ...(idToken === undefined ? leftOut(state, ["id_token"]) : { id_token: idToken }),
  };
}

/** The access token's lifetime in seconds: a number (RFC 6749 section 5.1), or its digits with `expiresInAsText`. */
function lifetimeAsWritten(state: SandboxState, seconds: number): number | string {
  return state.knobs.expiresInAsText ? String(seconds) : seconds;
}

/** @see RFC 6749 section 4.1.3, RFC 7636 section 4.6, RFC 8707 section 2.2 */
async function exchangeCode(state: SandboxState, client: SandboxClient, form: Map<string, string>, proofJkt: string | undefined) {
  const code = form.get("code");
  if (code === undefined || code === "") throw new OAuthFailure("invalid_request", "code is required");
  const verifier = form.get("code_verifier");
  if (verifier === undefined || verifier === "") throw new OAuthFailure("invalid_request", "code_verifier is required");
  const redirectUri = form.get("redirect_uri");
  if (redirectUri === undefined || redirectUri === "") throw new OAuthFailure("invalid_request", "redirect_uri is required");
  if (form.has("scope")) throw new OAuthFailure("invalid_request", "scope is not a parameter of the authorization_code grant");

  const now = state.now();
  const record = state.store.codes.get(code);
  if (!record || record.clientId !== client.clientId) {
    throw new OAuthFailure("invalid_grant", "The authorization code is invalid");
  }
  if (record.usedAt !== undefined) {
    // RFC 6749 section 4.1.2: a code presented twice revokes what was issued from it.
    if (record.grantId !== undefined) state.store.revokeGrant(record.grantId, now);
    throw new OAuthFailure("invalid_grant", "The authorization code has already been used");
  }
  record.usedAt = now;
  if (now - record.issuedAt > AUTHORIZATION_CODE_TTL_MS) {
    throw new OAuthFailure("invalid_grant", "The authorization code has expired");
  }
  if (redirectUri !== record.redirectUri) {
    throw new OAuthFailure("invalid_grant", "redirect_uri does not match the authorization request");
  }
  if (!CODE_VERIFIER_PATTERN.test(verifier) || !safeEqual(s256(verifier), record.codeChallenge)) {
    throw new OAuthFailure("invalid_grant", "code_verifier does not match the code_challenge");
  }
  const resource = form.get("resource");
  if (record.resource !== undefined && resource === undefined) {
    throw new OAuthFailure("invalid_target", "resource was sent in the authorization request and must be repeated");
  }
  if (resource !== undefined && resource !== record.resource) {
    throw new OAuthFailure("invalid_target", "resource does not match the authorization request");
  }

  // RFC 9449 section 10: a code bound with dpop_jkt is exchanged only with a proof of that key.
  if (record.dpopJkt !== undefined && record.dpopJkt !== proofJkt) {
    throw new OAuthFailure("invalid_dpop_proof", "The DPoP proof is not signed by the key the authorization code is bound to");
  }
  const grant: Grant = {
    id: randomToken(16),
    clientId: client.clientId,
    memberId: record.memberId,
    scopes: record.scopes,
    resource: record.resource ?? state.issuer,
    ...(proofJkt === undefined ? {} : { dpopJkt: proofJkt }),
    createdAt: now,
    revokedAt: undefined,
  };
  state.store.grants.set(grant.id, grant);
  record.grantId = grant.id;
  const access = issueAccessToken(state, grant, grant.scopes, grant.resource, grant.dpopJkt);
  const refresh = issueRefreshToken(state, grant);
  const wantsIdToken = grant.scopes.includes("openid") && state.knobs.idToken;
  const idToken = wantsIdToken ? await signIdToken(state, grant, record.nonce) : undefined;
  return tokenResponse(state, access, refresh, idToken);
}

/** @see RFC 6749 section 6, OAuth 2.0 Security BCP section 4.14 (refresh token rotation) */
function refresh(state: SandboxState, client: SandboxClient, form: Map<string, string>, proofJkt: string | undefined) {
  const token = form.get("refresh_token");
  if (token === undefined || token === "") throw new OAuthFailure("invalid_request", "refresh_token is required");
  const now = state.now();
  const record = state.store.refreshTokens.get(token);
  if (!record || record.clientId !== client.clientId) {
    throw new OAuthFailure("invalid_grant", "The refresh token is invalid");
  }
  const grant = state.store.grants.get(record.grantId);
  if (record.status === "rotated") {
    state.store.revokeGrant(record.grantId, now);
    throw new OAuthFailure("invalid_grant", "The refresh token was already used; the grant has been revoked");
  }
  if (record.status === "revoked" || !grant || grant.revokedAt !== undefined) {
    throw new OAuthFailure("invalid_grant", "The refresh token has been revoked");
  }
  if (now >= record.expiresAt) throw new OAuthFailure("invalid_grant", "The refresh token has expired");

  let scopes = record.scopes;
  const scopeParam = form.get("scope");
  if (scopeParam !== undefined) {
    const requested = [...new Set(scopeParam.split(" ").filter((s) => s !== ""))];
    if (requested.length === 0) throw new OAuthFailure("invalid_scope", "scope must not be empty");
    const wider = requested.filter((s) => !record.scopes.includes(s));
    if (wider.length > 0) throw new OAuthFailure("invalid_scope", `scope exceeds the original grant: ${wider.join(" ")}`.slice(0, 200));
    scopes = requested;
  }
  const resource = form.get("resource");
  if (resource !== undefined && (!acceptedResources(state).includes(resource) || resource !== grant.resource)) {
    throw new OAuthFailure("invalid_target", "resource must be the origin this grant is bound to");
  }

  // RFC 9449 section 5: the tokens of a DPoP-bound grant are renewed only with a proof of its key.
  if (grant.dpopJkt !== undefined && grant.dpopJkt !== proofJkt) {
    throw new OAuthFailure("invalid_dpop_proof", "The DPoP proof is not signed by the key this grant is bound to");
  }
  const access = issueAccessToken(state, grant, scopes, grant.resource, grant.dpopJkt);
  // Knob refreshWithoutRotation: the refresh token stays good and the answer carries none, as a site that does
  // not rotate answers (RFC 6749 section 6: the server MAY issue a new one; the client then keeps its own).
  if (state.knobs.refreshWithoutRotation) return tokenResponse(state, access, undefined);
  record.status = "rotated";
  return tokenResponse(state, access, issueRefreshToken(state, grant));
}

export function registerTokenRoutes(app: Hono, state: SandboxState): void {
  app.post("/api/oauth/token", async (c: Context) => {
    let refreshGrantRequested = false;
    try {
      const form = await readForm(c);
      refreshGrantRequested = form.get("grant_type") === "refresh_token";
      const client = authenticateClient(c, state, form);
      const grantType = form.get("grant_type");
      if (grantType === undefined || grantType === "") throw new OAuthFailure("invalid_request", "grant_type is required");
      const requestedScope = form.get("scope");
      if (client.audience !== "member" && requestedScope !== undefined) {
        // Section 5.4: an operator client asking for a member-only scope gets invalid_scope, whatever the grant.
        const reserved = requestedScope.split(" ").filter((scope) => MEMBER_ONLY_SCOPES.includes(scope));
        if (reserved.length > 0)
          throw new OAuthFailure("invalid_scope", `${[...new Set(reserved)].join(" ")} is reserved to member clients`);
      }
      // RFC 9449 section 5: with DPoP on, a proof (when sent, or always when required) is checked first.
      let proofJkt: string | undefined;
      if (state.knobs.dpop !== "off" && (c.req.header("dpop") !== undefined || state.knobs.dpop === "required")) {
        const proof = await checkDpopProof(c, state);
        if (!proof.ok) return tokenEndpointProofRefusal(c, state, proof);
        proofJkt = proof.jkt;
      }
      let body: Record<string, unknown>;
      if (grantType === "authorization_code") body = await exchangeCode(state, client, form, proofJkt);
      else if (grantType === "refresh_token") body = refresh(state, client, form, proofJkt);
      else throw new OAuthFailure("unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
      offerDpopNonce(c, state);
      return c.json(body, 200, { ...NO_STORE_HEADERS });
    } catch (error) {
      if (error instanceof OAuthFailure) {
        // Knob refreshRefusalWithoutBody: a refused refresh gets 400 and nothing else, as some providers answer.
        if (state.knobs.refreshRefusalWithoutBody && refreshGrantRequested) return c.body(null, 400, { ...NO_STORE_HEADERS });
        // Knob tokenErrorsWith200: the same error body with 200, as GitHub's OAuth apps answer a refused grant.
        return oauthError(c, state, error.error, error.description, state.knobs.tokenErrorsWith200 ? 200 : undefined);
      }
      throw error;
    }
  });
}
