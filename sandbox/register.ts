/**
 * The registration endpoint, `POST /api/oauth/register` (docs/architecture.md section 6.2). It is not open dynamic
 * registration: it answers RFC 7591 requests by these rules.
 *
 * 1. A `client_name` naming a known vendor integration gets that integration's `client_id` (and the
 *    integration's own metadata), provided the request names no redirect URI other than the integration's.
 * 2. A request whose redirect URIs are all loopback IP literals (`http://127.0.0.1:<port>/...` or
 *    `http://[::1]:<port>/...`; `localhost` is refused, RFC 8252 section 8.3) registers a new public client
 *    (`token_endpoint_auth_method: none`, PKCE required).
 * 3. A fixed HTTPS (or any other non-loopback) redirect URI is refused with `invalid_redirect_uri`.
 * 4. Precedence (left open by the spec): when a request names a vendor AND sends loopback redirect URIs that are
 *    not the integration's own, rule 2 wins: the caller gets a new loopback client, never the vendor's
 *    `client_id`. A name is self-asserted and proves nothing, while the redirect URIs decide where codes go: the
 *    vendor's `client_id` would be useless with redirect URIs it does not have, and handing it out would let a
 *    local app borrow the vendor's name on the consent page. The new client keeps the requested name, but the
 *    consent page marks it as an unverified application on the member's own computer.
 * Clients from these rules act for an operator: asking for `account:*` gives `invalid_scope` (section 5.4).
 *
 * @see RFC 7591 sections 2, 3.2.1 and 3.2.2
 */
import type { Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { isLoopbackRedirectUri, parseUrl } from "./clients";
import { NO_STORE_HEADERS, oauthError } from "./http-util";
import type { OAuthErrorCode } from "./http-util";
import { ALL_SCOPES, findVendorIntegration, MEMBER_ONLY_SCOPES, OPERATOR_SCOPES } from "./seed";
import type { SandboxClient, VendorIntegration } from "./seed";
import type { SandboxState } from "./state";
import { randomToken } from "./store";

const MAX_REDIRECT_URIS = 10;

const requestSchema = z.looseObject({
  client_name: z.string().trim().min(1, "client_name must not be empty").max(200, "client_name is too long").optional(),
  redirect_uris: z
    .array(z.string().max(2000, "a redirect URI is too long"), "redirect_uris must be an array of strings")
    .max(MAX_REDIRECT_URIS, `at most ${MAX_REDIRECT_URIS} redirect URIs`)
    .optional(),
  token_endpoint_auth_method: z.string().max(100).optional(),
  grant_types: z.array(z.string().max(100)).max(10).optional(),
  response_types: z.array(z.string().max(100)).max(10).optional(),
  application_type: z.string().max(100).optional(),
  scope: z.string().max(2000).optional(),
});

type RegistrationRequest = z.infer<typeof requestSchema>;

class RegistrationError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status?: ContentfulStatusCode,
  ) {
    super(description);
  }
}

function parseScope(scope: string | undefined): string[] | undefined {
  if (scope === undefined) return undefined;
  const scopes = [...new Set(scope.split(" ").filter((s) => s !== ""))];
  const unknown = scopes.filter((s) => !ALL_SCOPES.includes(s));
  if (unknown.length > 0) throw new RegistrationError("invalid_client_metadata", `Unknown scope: ${unknown.join(" ")}`.slice(0, 200));
  const reserved = scopes.filter((s) => MEMBER_ONLY_SCOPES.includes(s));
  if (reserved.length > 0) {
    throw new RegistrationError(
      "invalid_scope",
      `${reserved.join(" ")} is reserved to member clients, which an operator creates in the site's admin area`,
    );
  }
  return scopes.length > 0 ? scopes : undefined;
}

function checkGrantAndResponseTypes(body: RegistrationRequest): void {
  const badGrants = (body.grant_types ?? []).filter((g) => g !== "authorization_code" && g !== "refresh_token");
  if (badGrants.length > 0) {
    throw new RegistrationError("invalid_client_metadata", "grant_types may only list authorization_code and refresh_token");
  }
  if ((body.response_types ?? []).some((r) => r !== "code")) {
    throw new RegistrationError("invalid_client_metadata", "response_types may only list code");
  }
}

/** Rule 1: the integration's own metadata, whatever else the request asked for. */
function vendorResponse(vendor: VendorIntegration) {
  return {
    client_id: vendor.clientId,
    client_id_issued_at: vendor.issuedAt,
    client_name: vendor.clientName,
    redirect_uris: [...vendor.redirectUris],
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };
}

/**
 * Past the limit, a new loopback registration is refused with a clear error. Deleting the oldest
 * clients instead would silently revoke the grants members gave them.
 */
function assertRoomForLoopbackClient(state: SandboxState): void {
  const loopback = [...state.clients.values()].filter((client) => client.kind === "loopback").length;
  if (loopback < state.loopbackClientLimit) return;
  throw new RegistrationError(
    "access_denied",
    `This site already has ${state.loopbackClientLimit} registered local applications, its limit, and registers no more. ` +
      "Restarting the sandbox (or POST /__sandbox/reset) removes them.",
    403,
  );
}

/** Rule 2: a new public client for loopback redirect URIs. */
function registerLoopbackClient(state: SandboxState, body: RegistrationRequest, redirectUris: string[], scopes: string[] | undefined) {
  const method = body.token_endpoint_auth_method ?? "none";
  if (method !== "none") {
    throw new RegistrationError(
      "invalid_client_metadata",
      "Loopback clients are public clients: token_endpoint_auth_method must be none (PKCE protects the code)",
    );
  }
  if (body.application_type !== undefined && body.application_type !== "native") {
    throw new RegistrationError("invalid_client_metadata", "Loopback clients are native applications: application_type must be native");
  }
  assertRoomForLoopbackClient(state);
  const now = state.now();
  const client: SandboxClient = {
    clientId: `loopback-${randomToken(12)}`,
    clientName: body.client_name ?? "Local application",
    authMethod: "none",
    redirectUris,
    allowedScopes: scopes ?? OPERATOR_SCOPES,
    audience: "operator",
    kind: "loopback",
    createdAt: now,
  };
  state.clients.set(client.clientId, client);
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(now / 1000),
    client_name: client.clientName,
    redirect_uris: [...redirectUris],
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    application_type: "native",
    ...(scopes ? { scope: scopes.join(" ") } : {}),
  };
}

function describeRedirectProblem(uri: string): string {
  const url = parseUrl(uri);
  if (!url) return "A redirect URI is not an absolute URI";
  if (url.hash !== "" || uri.includes("#")) return "A redirect URI must not have a fragment";
  if (url.protocol === "https:") {
    return "Fixed HTTPS redirect URIs cannot be registered here; such clients need an integration arranged with the site's operator";
  }
  if (url.protocol === "http:" && url.hostname === "localhost") {
    return "Use the loopback IP literal http://127.0.0.1:<port>/... instead of localhost (RFC 8252 section 8.3)";
  }
  return "Only loopback redirect URIs (http://127.0.0.1:<port>/...) can be registered here";
}

function register(state: SandboxState, raw: unknown) {
  const parsed = requestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    const error: OAuthErrorCode = field === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata";
    const message = issue ? `${field === undefined ? "The body" : String(field)}: ${issue.message}` : "Invalid client metadata";
    throw new RegistrationError(error, message.slice(0, 300));
  }
  const body = parsed.data;
  checkGrantAndResponseTypes(body);
  const scopes = parseScope(body.scope);
  const redirectUris = [...new Set(body.redirect_uris ?? [])];
  const vendor = body.client_name === undefined ? undefined : findVendorIntegration(body.client_name);

  // Rule 1: the vendor's integration, when the request asks for nothing the integration does not have.
  if (vendor && redirectUris.every((uri) => vendor.redirectUris.includes(uri))) return vendorResponse(vendor);

  // Rule 2 (and the precedence choice, rule 4): loopback redirect URIs give a new loopback client.
  const notLoopback = redirectUris.filter((uri) => !isLoopbackRedirectUri(uri));
  if (redirectUris.length > 0 && notLoopback.length === 0) return registerLoopbackClient(state, body, redirectUris, scopes);

  // Rule 3: anything else in redirect_uris (a fixed HTTPS URI above all) is refused.
  const first = notLoopback[0];
  if (first !== undefined) throw new RegistrationError("invalid_redirect_uri", describeRedirectProblem(first));

  throw new RegistrationError(
    "invalid_client_metadata",
    body.client_name === undefined
      ? "Name a known integration in client_name, or register loopback redirect_uris"
      : "client_name does not match a known integration, and no loopback redirect_uris were given",
  );
}

async function handleRegister(c: Context, state: SandboxState): Promise<Response> {
  try {
    const contentType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (contentType !== "application/json") {
      throw new RegistrationError("invalid_client_metadata", "The request body must be JSON (Content-Type: application/json)");
    }
    let raw: unknown;
    try {
      raw = JSON.parse(await c.req.text());
    } catch {
      throw new RegistrationError("invalid_client_metadata", "The request body is not valid JSON");
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new RegistrationError("invalid_client_metadata", "The request body must be a JSON object");
    }
    return c.json(register(state, raw), 201, { ...NO_STORE_HEADERS });
  } catch (error) {
    if (error instanceof RegistrationError) return oauthError(c, state, error.error, error.description, error.status);
    throw error;
  }
}

export function registerRegistrationRoutes(app: Hono, state: SandboxState): void {
  app.post("/api/oauth/register", (c) => handleRegister(c, state));
}
