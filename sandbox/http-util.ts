/**
 * Shared HTTP helpers: OAuth error bodies (RFC 6749 section 5.2), strict form parsing, client authentication
 * (`none` and `client_secret_post`) and bearer-token challenges (RFC 6750, RFC 9728).
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { SandboxClient } from "./seed";
import type { SandboxState } from "./state";
import { secretMatchesHash } from "./store";

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "unsupported_token_type"
  | "invalid_client_metadata"
  | "invalid_redirect_uri"
  | "access_denied"
  | "server_error"
  | "invalid_dpop_proof";

/**
 * Fields of a JSON answer that have no value: left out, as the site's documentation has it, or written `null`
 * with the `writesNulls` knob, as a serializer that writes every field of its response type writes them.
 */
export function leftOut(state: SandboxState, fields: readonly string[]): Record<string, null> {
  return state.knobs.writesNulls ? Object.fromEntries(fields.map((field) => [field, null])) : {};
}

export const NO_STORE_HEADERS = { "Cache-Control": "no-store", Pragma: "no-cache" } as const;

export function errorUri(state: SandboxState): string {
  return `${state.issuer}/auth.md#errors`;
}

/** An OAuth error answer: 401 for `invalid_client`, 400 otherwise (RFC 6749 section 5.2). */
export function oauthError(
  c: Context,
  state: SandboxState,
  error: OAuthErrorCode,
  description: string,
  status?: ContentfulStatusCode,
): Response {
  const code = status ?? (error === "invalid_client" ? 401 : 400);
  return c.json({ error, error_description: description, error_uri: errorUri(state) }, code, {
    ...NO_STORE_HEADERS,
  });
}

export class OAuthFailure extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
  }
}

/**
 * Reads an `application/x-www-form-urlencoded` body strictly: any other content type, or a parameter sent more
 * than once, is `invalid_request` (RFC 6749 section 3.2).
 */
export async function readForm(c: Context): Promise<Map<string, string>> {
  const contentType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/x-www-form-urlencoded") {
    throw new OAuthFailure("invalid_request", "The request body must be application/x-www-form-urlencoded");
  }
  const text = await c.req.text();
  const params = new URLSearchParams(text);
  const form = new Map<string, string>();
  for (const [key, value] of params) {
    if (form.has(key)) throw new OAuthFailure("invalid_request", `The parameter "${key}" was sent more than once`);
    form.set(key, value);
  }
  return form;
}

/**
 * Authenticates the client from the form: `client_secret_post` for confidential clients, `none` (client_id
 * only) for public ones. HTTP Basic is not a supported method.
 * @see RFC 6749 section 2.3.1
 */
export function authenticateClient(c: Context, state: SandboxState, form: Map<string, string>): SandboxClient {
  if (c.req.header("authorization") !== undefined) {
    throw new OAuthFailure("invalid_client", "Client authentication in the Authorization header is not supported; use client_secret_post");
  }
  const clientId = form.get("client_id");
  if (clientId === undefined || clientId === "") {
    throw new OAuthFailure("invalid_client", "client_id is required");
  }
  const client = state.clients.get(clientId);
  if (!client) throw new OAuthFailure("invalid_client", "Unknown client");
  const secret = form.get("client_secret");
  if (client.authMethod === "client_secret_post") {
    if (secret === undefined || secret === "") {
      throw new OAuthFailure("invalid_client", "This client must authenticate with client_secret_post");
    }
    if (client.clientSecretHash === undefined || !secretMatchesHash(secret, client.clientSecretHash)) {
      throw new OAuthFailure("invalid_client", "Client authentication failed");
    }
  } else if (secret !== undefined) {
    throw new OAuthFailure("invalid_client", "This is a public client; it must not send a client_secret");
  }
  return client;
}

function quote(value: string): string {
  return `"${value.replace(/["\\]/g, "")}"`;
}

export function resourceMetadataUrl(state: SandboxState): string {
  return `${state.issuer}/.well-known/oauth-protected-resource`;
}

/** 401 `invalid_token` with a `WWW-Authenticate` challenge pointing at the protected-resource metadata. */
export function invalidTokenResponse(c: Context, state: SandboxState, description: string): Response {
  c.header(
    "WWW-Authenticate",
    `Bearer error="invalid_token", error_description=${quote(description)}, resource_metadata=${quote(resourceMetadataUrl(state))}`,
  );
  return c.json({ error: "invalid_token", error_description: description }, 401, { ...NO_STORE_HEADERS });
}

/** 403 `insufficient_scope` naming the scope required. */
export function insufficientScopeResponse(c: Context, state: SandboxState, scope: string): Response {
  const description = `This request needs the ${scope} scope`;
  c.header(
    "WWW-Authenticate",
    `Bearer error="insufficient_scope", error_description=${quote(description)}, scope=${quote(scope)}, ` +
      `resource_metadata=${quote(resourceMetadataUrl(state))}`,
  );
  return c.json({ error: "insufficient_scope", error_description: description, scope }, 403, { ...NO_STORE_HEADERS });
}

export type BearerResult = { kind: "none" } | { kind: "malformed" } | { kind: "token"; token: string };

/** The bearer token of the Authorization header (the only bearer method supported, RFC 6750 section 2.1). */
export function readBearer(c: Context): BearerResult {
  const header = c.req.header("authorization");
  if (header === undefined) return { kind: "none" };
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  const token = match?.[1];
  return token === undefined ? { kind: "malformed" } : { kind: "token", token };
}

/**
 * A `return_to` kept only when it is a path on this site (OWASP ASVS 5 V3.7.2, open redirects). The
 * value is resolved against the issuer and the normalised result is checked, so dot segments
 * (`/a/..//evil`), control characters browsers strip (`/\t/evil`) and backslashes cannot produce a
 * path that a browser reads as another host.
 */
export function sitePathOrUndefined(value: string | undefined, state: SandboxState): string | undefined {
  if (value === undefined || value.length > 500 || !value.startsWith("/") || /[\u0000-\u0020\u007f\\]/.test(value)) return undefined;
  let resolved: URL;
  try {
    resolved = new URL(value, state.issuer);
  } catch {
    return undefined;
  }
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  if (resolved.origin !== new URL(state.issuer).origin || path.startsWith("//") || /%5c/i.test(resolved.pathname)) return undefined;
  return path;
}
