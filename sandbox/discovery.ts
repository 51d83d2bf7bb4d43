/**
 * Discovery documents: RFC 8414 authorization-server metadata (the authority), OpenID Connect Discovery,
 * RFC 9728 protected-resource metadata, and the JWKS.
 */
import type { Hono } from "hono";
import { END_SESSION_PATH } from "./end-session";
import { leftOut } from "./http-util";
import { ALL_SCOPES } from "./seed";
import { SIGN_IN_LANGUAGES } from "./sign-in-words";
import type { SandboxState } from "./state";
import { issuerIdentifier } from "./state";

export const JWKS_PATH = "/.well-known/jwks.json";

/** @see RFC 8414 section 2 */
export function authorizationServerMetadata(state: SandboxState): Record<string, unknown> {
  const issuer = state.issuer;
  const metadata: Record<string, unknown> = {
    issuer: issuerIdentifier(state),
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/api/oauth/token`,
    userinfo_endpoint: `${issuer}/api/oauth/userinfo`,
    revocation_endpoint: `${issuer}/api/oauth/revoke`,
    introspection_endpoint: `${issuer}/api/oauth/introspect`,
    registration_endpoint: `${issuer}/api/oauth/register`,
    scopes_supported: [...ALL_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_post"],
    revocation_endpoint_auth_methods_supported: ["none", "client_secret_post"],
    introspection_endpoint_auth_methods_supported: ["none", "client_secret_post"],
    authorization_response_iss_parameter_supported: true,
    // Section 5.3 rule 5: an HTTPS URL of a metadata document may serve as client_id (see cimd.ts).
    client_id_metadata_document_supported: true,
    service_documentation: `${issuer}/auth.md`,
  };
  // RFC 8414 section 2: the languages of the sign-in and consent pages (sandbox/sign-in-words.ts).
  if (state.knobs.localizedSignIn) metadata.ui_locales_supported = [...SIGN_IN_LANGUAGES];
  else Object.assign(metadata, leftOut(state, ["ui_locales_supported"]));
  // RFC 9449 section 5.1.
  if (state.knobs.dpop !== "off") metadata.dpop_signing_alg_values_supported = ["ES256"];
  else Object.assign(metadata, leftOut(state, ["dpop_signing_alg_values_supported"]));
  // RFC 9126 section 5.
  if (state.knobs.par !== "off") metadata.pushed_authorization_request_endpoint = `${issuer}/api/oauth/par`;
  else Object.assign(metadata, leftOut(state, ["pushed_authorization_request_endpoint"]));
  if (state.knobs.par === "required") metadata.require_pushed_authorization_requests = true;
  else Object.assign(metadata, leftOut(state, ["require_pushed_authorization_requests"]));
  if (state.knobs.idToken) {
    metadata.jwks_uri = `${issuer}${JWKS_PATH}`;
    metadata.id_token_signing_alg_values_supported = ["ES256"];
  } else {
    Object.assign(metadata, leftOut(state, ["jwks_uri", "id_token_signing_alg_values_supported"]));
  }
  return metadata;
}

export function openIdConfiguration(state: SandboxState): Record<string, unknown> {
  return {
    ...authorizationServerMetadata(state),
    subject_types_supported: ["public"],
    claims_supported: ["iss", "aud", "exp", "iat", "nonce", "sub", "email", "email_verified", "name", "org_id", "roles"],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    // OpenID Connect RP-Initiated Logout 1.0 section 2.1 (an OpenID Provider metadata field).
    ...(state.knobs.endSession ? { end_session_endpoint: `${state.issuer}${END_SESSION_PATH}` } : leftOut(state, ["end_session_endpoint"])),
  };
}

/** @see RFC 9728 section 2 */
export function protectedResourceMetadata(state: SandboxState): Record<string, unknown> {
  return {
    resource: state.issuer,
    authorization_servers: [issuerIdentifier(state)],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Demo Academy (sandbox)",
    resource_documentation: `${state.issuer}/auth.md`,
  };
}

export function registerDiscoveryRoutes(app: Hono, state: SandboxState): void {
  // Knobs can change these documents at runtime, so clients must revalidate.
  const cacheHeaders = { "Cache-Control": "no-cache" };
  app.get("/.well-known/oauth-authorization-server", (c) =>
    // A provider that publishes only OpenID Connect Discovery (knob openIdDiscoveryOnly).
    state.knobs.openIdDiscoveryOnly
      ? c.json({ error: "not_found", error_description: "No such endpoint" }, 404, cacheHeaders)
      : c.json(authorizationServerMetadata(state), 200, cacheHeaders),
  );
  app.get("/.well-known/openid-configuration", (c) => c.json(openIdConfiguration(state), 200, cacheHeaders));
  app.get("/.well-known/oauth-protected-resource", (c) => c.json(protectedResourceMetadata(state), 200, cacheHeaders));
  // The key set is published even when id_tokens are off (docs/architecture.md section 6.4). After a graceful
  // rotation it lists the new key and the previous ones; after an abrupt one, the new key only (signing-keys.ts).
  app.get(JWKS_PATH, (c) => c.json({ keys: state.signingKeys.published.map((key) => key.publicJwk) }, 200, cacheHeaders));
}
