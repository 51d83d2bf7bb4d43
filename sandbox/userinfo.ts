/**
 * UserInfo (OpenID Connect Core section 5.3), revocation (RFC 7009) and introspection (RFC 7662).
 */
import type { Context, Hono } from "hono";
import {
  authenticateClient,
  insufficientScopeResponse,
  invalidTokenResponse,
  leftOut,
  NO_STORE_HEADERS,
  OAuthFailure,
  oauthError,
  readForm,
} from "./http-util";
import { authenticateResourceRequest, checkDpopProof, offerDpopNonce, tokenEndpointProofRefusal } from "./dpop";
import { findMemberById, SCHOOL } from "./seed";
import type { DemoMember } from "./seed";
import type { SandboxState } from "./state";
import { issuerIdentifier } from "./state";

/** The member's claims for a token of `scopes`: `email` and `name` only with their scopes (OpenID Connect Core 5.4). */
export function userInfoClaims(state: SandboxState, member: DemoMember, scopes: readonly string[]): Record<string, unknown> {
  return {
    sub: member.id,
    ...(scopes.includes("email") ? { email: member.email, email_verified: true } : leftOut(state, ["email", "email_verified"])),
    ...(scopes.includes("profile") ? { name: member.name } : leftOut(state, ["name"])),
    org_id: SCHOOL.orgId,
    roles: [...member.roles],
  };
}

async function handleUserInfo(c: Context, state: SandboxState): Promise<Response> {
  // Bearer, or DPoP with a proof of the token's key (RFC 9449 section 7).
  const auth = await authenticateResourceRequest(c, state);
  if (auth.kind === "none") return invalidTokenResponse(c, state, "An access token is required");
  if (auth.kind === "refused") return auth.response;
  const checked = { record: auth.record };
  if (!checked.record.scopes.includes("openid")) return insufficientScopeResponse(c, state, "openid");
  const member = findMemberById(checked.record.memberId);
  if (!member) return invalidTokenResponse(c, state, "The member of this token no longer exists");
  const claims = userInfoClaims(state, member, checked.record.scopes);
  // Knob userInfoRolesReordered: the same roles as the id_token's, in another order.
  if (state.knobs.userInfoRolesReordered) claims.roles = member.roles.toReversed();
  return c.json(claims, 200, { ...NO_STORE_HEADERS });
}

/**
 * The `dpopRevocation` knob: a DPoP-bound token (bound to `jkt`) is revoked only with a valid proof of its
 * key (RFC 9449 section 4.3: htm, htu of this endpoint, iat, jti, and the nonce with `dpopNonce`), refused
 * like the token endpoint refuses one (400 `invalid_dpop_proof` or `use_dpop_nonce`). Undefined when the
 * revocation may go ahead.
 */
async function refuseWithoutProof(c: Context, state: SandboxState, jkt: string | undefined): Promise<Response | undefined> {
  if (!state.knobs.dpopRevocation || state.knobs.dpop === "off" || jkt === undefined) return undefined;
  const proof = await checkDpopProof(c, state);
  if (!proof.ok) return tokenEndpointProofRefusal(c, state, proof);
  if (proof.jkt !== jkt) {
    return tokenEndpointProofRefusal(c, state, {
      ok: false,
      error: "invalid_dpop_proof",
      description: "The DPoP proof is not signed by the token's key",
    });
  }
  offerDpopNonce(c, state);
  return undefined;
}

/** @see RFC 7009 section 2 */
async function handleRevoke(c: Context, state: SandboxState): Promise<Response> {
  try {
    const form = await readForm(c);
    const client = authenticateClient(c, state, form);
    const token = form.get("token");
    if (token === undefined || token === "") throw new OAuthFailure("invalid_request", "token is required");
    const now = state.now();
    // The hint only orders the lookup; an unknown hint is ignored (RFC 7009 section 2.1).
    const hint = form.get("token_type_hint");
    const lookups = hint === "refresh_token" ? (["refresh", "access"] as const) : (["access", "refresh"] as const);
    for (const kind of lookups) {
      if (kind === "access") {
        const record = state.store.accessTokens.get(token);
        if (record && record.clientId === client.clientId) {
          const refused = await refuseWithoutProof(c, state, record.dpopJkt);
          if (refused) return refused;
          if (record.revokedAt === undefined) record.revokedAt = now;
          break;
        }
      } else {
        const record = state.store.refreshTokens.get(token);
        if (record && record.clientId === client.clientId) {
          const refused = await refuseWithoutProof(c, state, state.store.grants.get(record.grantId)?.dpopJkt);
          if (refused) return refused;
          // Revoking a refresh token ends the grant: its access tokens too (RFC 7009 section 2.1), unless the
          // knob mimics a site that revokes only the token presented.
          if (state.knobs.refreshRevocationEndsGrant) state.store.revokeGrant(record.grantId, now);
          else record.status = "revoked";
          break;
        }
      }
    }
    // Unknown tokens, and tokens of other clients, get the same empty 200 (RFC 7009 section 2.2).
    return c.body(null, 200, { ...NO_STORE_HEADERS });
  } catch (error) {
    if (error instanceof OAuthFailure) return oauthError(c, state, error.error, error.description);
    throw error;
  }
}

/** @see RFC 7662 section 2 */
async function handleIntrospect(c: Context, state: SandboxState): Promise<Response> {
  try {
    const form = await readForm(c);
    const client = authenticateClient(c, state, form);
    const token = form.get("token");
    if (token === undefined || token === "") throw new OAuthFailure("invalid_request", "token is required");
    const now = state.now();
    const inactive = () => c.json({ active: false }, 200, { ...NO_STORE_HEADERS });

    const checked = state.store.checkAccessToken(token, now);
    if (checked.ok) {
      const record = checked.record;
      if (record.clientId !== client.clientId) return inactive();
      const member = findMemberById(record.memberId);
      return c.json(
        {
          active: true,
          scope: record.scopes.join(" "),
          client_id: record.clientId,
          username: member?.email,
          sub: record.memberId,
          token_type: "Bearer",
          exp: Math.floor(record.expiresAt / 1000),
          iat: Math.floor(record.issuedAt / 1000),
          iss: issuerIdentifier(state),
          aud: record.resource,
          org_id: SCHOOL.orgId,
        },
        200,
        { ...NO_STORE_HEADERS },
      );
    }
    const refresh = state.store.refreshTokens.get(token);
    const grant = refresh ? state.store.grants.get(refresh.grantId) : undefined;
    if (refresh && grant && refresh.status === "active" && grant.revokedAt === undefined && now < refresh.expiresAt) {
      if (refresh.clientId !== client.clientId) return inactive();
      return c.json(
        {
          active: true,
          scope: refresh.scopes.join(" "),
          client_id: refresh.clientId,
          sub: refresh.memberId,
          token_type: "refresh_token",
          exp: Math.floor(refresh.expiresAt / 1000),
          iat: Math.floor(refresh.issuedAt / 1000),
          iss: issuerIdentifier(state),
          aud: grant.resource,
        },
        200,
        { ...NO_STORE_HEADERS },
      );
    }
    return inactive();
  } catch (error) {
    if (error instanceof OAuthFailure) return oauthError(c, state, error.error, error.description);
    throw error;
  }
}

export function registerUserInfoRoutes(app: Hono, state: SandboxState): void {
  app.get("/api/oauth/userinfo", (c) => handleUserInfo(c, state));
  app.post("/api/oauth/userinfo", (c) => handleUserInfo(c, state));
  app.post("/api/oauth/revoke", (c) => handleRevoke(c, state));
  app.post("/api/oauth/introspect", (c) => handleIntrospect(c, state));
}
