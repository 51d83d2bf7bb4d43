/**
 * The site's documents for developers and agents, generated from this server's real URLs, scopes, knobs and
 * catalog: `/openapi.json` (OpenAPI 3.0.3), `/auth.md` (the authentication walkthrough; `error_uri` points at its
 * `#errors` section), `/llms.txt` (the agent index) and `/pricing.md` (what the site sells).
 */
import type { Hono } from "hono";
import { ACCOUNT_SCHEMA_SDL } from "./account-graphql";
import { CIMD_MAX_BYTES } from "./cimd";
import { COURSES } from "./data/catalog";
import { coursePlan, formatPrice, PRODUCTS } from "./data/pricing";
import { JWKS_PATH } from "./discovery";
import { MCP_PATH, MCP_SERVER_NAME, MEMBER_MCP_TOOLS, PUBLIC_MCP_TOOLS } from "./mcp";
import { ALL_SCOPES, MEMBER_ONLY_SCOPES, SCHOOL, UNREVIEWED_CLIENT_SCOPES, VENDOR_INTEGRATIONS } from "./seed";
import type { SandboxState } from "./state";
import { AUTHORIZATION_CODE_TTL_MS } from "./store";
import { ID_TOKEN_TTL_SECONDS } from "./token";

export const DOCUMENT_PATHS = {
  openapi: "/openapi.json",
  auth: "/auth.md",
  llms: "/llms.txt",
  pricing: "/pricing.md",
} as const;

/** What each scope grants (section 5.5), in words. */
export function scopeMeaning(scope: string): string {
  const fixed: Record<string, string> = {
    openid: "OpenID Connect authentication",
    profile: "basic profile information",
    email: "email address",
    "account:read": "read the member's own account: enrollments, orders, event registrations (member clients only)",
    "account:write": "write the member's own account (member clients only)",
  };
  const known = fixed[scope];
  if (known) return known;
  const [resource = scope, access = ""] = scope.split(":");
  return `${access} ${resource.replace(/_/g, " ")}`;
}

// ---------------------------------------------------------------------------------------------------------------
// OpenAPI

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

function jsonContent(schema: Json): Json {
  return { "application/json": { schema } };
}

function oauthErrorResponse(description: string): Json {
  return { description, content: jsonContent(ref("OAuthError")) };
}

const bearerChallenge: Json = {
  description:
    "`invalid_token`: the token is missing, malformed, unknown, expired, revoked or bound to another origin. " +
    "The `WWW-Authenticate` header carries `resource_metadata`.",
  headers: { "WWW-Authenticate": { schema: { type: "string" }, description: "Bearer challenge with error and resource_metadata" } },
  content: jsonContent(ref("OAuthError")),
};

function textDocument(summary: string, mediaType: string): Json {
  return {
    get: {
      tags: ["Documents"],
      summary,
      operationId: `get${summary.replace(/[^A-Za-z]/g, "")}`,
      responses: { "200": { description: summary, content: { [mediaType]: { schema: { type: "string" } } } } },
    },
  };
}

function metadataDocument(summary: string, operationId: string, schemaName: string): Json {
  return {
    get: {
      tags: ["Discovery"],
      summary,
      operationId,
      responses: { "200": { description: summary, content: jsonContent(ref(schemaName)) } },
    },
  };
}

export function openApiDocument(state: SandboxState): Json {
  const issuer = state.issuer;
  const scopes = Object.fromEntries(ALL_SCOPES.map((scope) => [scope, scopeMeaning(scope)]));
  const formBody = (properties: Json, required: string[]): Json => ({
    required: true,
    // OpenAPI 3.0: a schema's `required` lists at least one name, or is left out.
    content: {
      "application/x-www-form-urlencoded": { schema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) } },
    },
  });
  const clientAuth: Json = {
    client_id: { type: "string" },
    client_secret: { type: "string", description: "Confidential clients only (client_secret_post)" },
  };
  const userInfoOperation = (method: string): Json => ({
    tags: ["OAuth"],
    summary: "UserInfo (OpenID Connect Core section 5.3)",
    operationId: `userInfo${method}`,
    security: [{ bearerAuth: [] }],
    responses: {
      "200": { description: "Claims of the token's subject", content: jsonContent(ref("UserInfo")) },
      "401": bearerChallenge,
      "403": oauthErrorResponse("`insufficient_scope`: the token lacks `openid`"),
    },
  });
  const mcpNotAllowed = (method: string): Json => ({
    tags: ["MCP"],
    summary: "Not offered: the MCP server is stateless (no SSE stream, no session)",
    operationId: `mcp${method}`,
    responses: { "401": bearerChallenge, "405": { description: "Method not allowed", content: jsonContent(ref("JsonRpcMessage")) } },
  });

  return {
    openapi: "3.0.3",
    info: {
      title: `${SCHOOL.name} Site Access API (sandbox)`,
      version: "1.0.0",
      description:
        `OAuth 2.0 / OpenID Connect, the member Account API in GraphQL, an MCP server and discovery documents of ${SCHOOL.name}. ` +
        `Authentication walkthrough: ${issuer}${DOCUMENT_PATHS.auth}.`,
    },
    servers: [{ url: issuer }],
    tags: [{ name: "Discovery" }, { name: "OAuth" }, { name: "Account" }, { name: "MCP" }, { name: "Documents" }],
    paths: {
      "/.well-known/oauth-authorization-server": metadataDocument(
        "Authorization server metadata (RFC 8414); the authority for endpoints, grant types and scopes",
        "getAuthorizationServerMetadata",
        "AuthorizationServerMetadata",
      ),
      "/.well-known/openid-configuration": metadataDocument(
        "OpenID Connect Discovery",
        "getOpenIdConfiguration",
        "AuthorizationServerMetadata",
      ),
      "/.well-known/oauth-protected-resource": metadataDocument(
        "Protected resource metadata (RFC 9728)",
        "getProtectedResourceMetadata",
        "ProtectedResourceMetadata",
      ),
      [JWKS_PATH]: metadataDocument("The ES256 keys that sign id_tokens", "getJwks", "Jwks"),
      "/api/oauth/register": {
        post: {
          tags: ["OAuth"],
          summary: "Obtain a client_id (section 5.3): a known vendor integration, or a loopback client",
          operationId: "registerClient",
          requestBody: { required: true, content: jsonContent(ref("RegistrationRequest")) },
          responses: {
            "201": { description: "The client (RFC 7591 section 3.2.1)", content: jsonContent(ref("RegistrationResponse")) },
            "400": oauthErrorResponse("`invalid_client_metadata`, `invalid_redirect_uri` or `invalid_scope` (RFC 7591 section 3.2.2)"),
          },
        },
      },
      "/oauth/authorize": {
        get: {
          tags: ["OAuth"],
          summary: "Authorization endpoint (reached by browser navigation): sign-in and consent",
          operationId: "authorize",
          parameters: [
            { name: "response_type", in: "query", required: true, schema: { type: "string", enum: ["code"] } },
            {
              name: "client_id",
              in: "query",
              required: true,
              description: "A registered client_id, or the HTTPS URL of a Client ID Metadata Document",
              schema: { type: "string" },
            },
            { name: "redirect_uri", in: "query", required: true, schema: { type: "string", format: "uri" } },
            { name: "scope", in: "query", required: true, description: "Space-separated scopes", schema: { type: "string" } },
            { name: "code_challenge", in: "query", required: true, schema: { type: "string", pattern: "^[A-Za-z0-9_-]{43,128}$" } },
            { name: "code_challenge_method", in: "query", required: true, schema: { type: "string", enum: ["S256"] } },
            { name: "state", in: "query", required: false, schema: { type: "string", maxLength: 512 } },
            { name: "nonce", in: "query", required: false, schema: { type: "string", maxLength: 512 } },
            {
              name: "resource",
              in: "query",
              required: false,
              description: "RFC 8707: this origin",
              schema: { type: "string", enum: [issuer] },
            },
          ],
          responses: {
            "200": { description: "The sign-in or consent page", content: { "text/html": { schema: { type: "string" } } } },
            "302": {
              description: "Redirect to redirect_uri with `code`, `state` and `iss` (RFC 9207), or with `error`",
              headers: { Location: { schema: { type: "string", format: "uri" } } },
            },
            "400": {
              description: "An error page, when the client or redirect_uri cannot be trusted",
              content: { "text/html": { schema: { type: "string" } } },
            },
          },
        },
      },
      "/oauth/logout": {
        get: {
          tags: ["OAuth"],
          summary: "End-session endpoint (OpenID Connect RP-Initiated Logout 1.0), reached by browser navigation",
          operationId: "endSession",
          parameters: [
            {
              name: "id_token_hint",
              in: "query",
              required: false,
              description: "An id_token this site issued",
              schema: { type: "string" },
            },
            { name: "client_id", in: "query", required: false, schema: { type: "string" } },
            {
              name: "post_logout_redirect_uri",
              in: "query",
              required: false,
              description: "One of the client's registered post-logout redirect URIs, compared exactly",
              schema: { type: "string", format: "uri" },
            },
            { name: "state", in: "query", required: false, schema: { type: "string" } },
          ],
          responses: {
            "200": {
              description: "The page that asks the member to confirm the sign-out",
              content: { "text/html": { schema: { type: "string" } } },
            },
            "303": {
              description: "Signed out: back to post_logout_redirect_uri with `state`",
              headers: { Location: { schema: { type: "string", format: "uri" } } },
            },
            "400": {
              description: "An error page, when the hint, the client or the redirect URI cannot be trusted",
              content: { "text/html": { schema: { type: "string" } } },
            },
            "404": { description: "This site does not implement RP-Initiated Logout (sandbox knob endSession off)" },
          },
        },
        post: {
          tags: ["OAuth"],
          summary: "The same request, form-encoded (RP-Initiated Logout 1.0 section 2)",
          operationId: "endSessionPost",
          requestBody: formBody(
            {
              id_token_hint: { type: "string" },
              client_id: { type: "string" },
              post_logout_redirect_uri: { type: "string" },
              state: { type: "string" },
            },
            [],
          ),
          responses: {
            "200": { description: "The confirmation page", content: { "text/html": { schema: { type: "string" } } } },
            "303": { description: "Signed out: back to post_logout_redirect_uri with `state`" },
            "400": { description: "An error page", content: { "text/html": { schema: { type: "string" } } } },
          },
        },
      },
      "/oauth/logout/confirm": {
        post: {
          tags: ["OAuth"],
          summary: "The member confirms the sign-out on the site's page (form with its CSRF token)",
          operationId: "endSessionConfirm",
          requestBody: formBody({ csrf_token: { type: "string" } }, ["csrf_token"]),
          responses: {
            "303": { description: "Signed out at the site: back to the application, or to the site's signed-out page" },
            "400": { description: "An error page", content: { "text/html": { schema: { type: "string" } } } },
          },
        },
      },
      "/api/oauth/token": {
        post: {
          tags: ["OAuth"],
          summary: "Token endpoint: authorization_code (PKCE) and refresh_token (rotating) grants",
          operationId: "token",
          requestBody: formBody(
            {
              grant_type: { type: "string", enum: ["authorization_code", "refresh_token"] },
              code: { type: "string" },
              redirect_uri: { type: "string" },
              code_verifier: { type: "string" },
              refresh_token: { type: "string" },
              resource: { type: "string", enum: [issuer] },
              scope: { type: "string", description: "refresh_token grant only: narrows the scopes" },
              ...clientAuth,
            },
            ["grant_type", "client_id"],
          ),
          responses: {
            "200": { description: "Tokens", content: jsonContent(ref("TokenResponse")) },
            "400": oauthErrorResponse("`invalid_request`, `invalid_grant`, `invalid_scope`, `invalid_target` or `unsupported_grant_type`"),
            "401": oauthErrorResponse("`invalid_client`"),
          },
        },
      },
      "/api/oauth/userinfo": { get: userInfoOperation("Get"), post: userInfoOperation("Post") },
      "/api/oauth/revoke": {
        post: {
          tags: ["OAuth"],
          summary: "Revocation (RFC 7009); revoking a refresh token ends its grant",
          operationId: "revoke",
          requestBody: formBody(
            { token: { type: "string" }, token_type_hint: { type: "string", enum: ["access_token", "refresh_token"] }, ...clientAuth },
            ["token", "client_id"],
          ),
          responses: {
            "200": { description: "Revoked, or the token was unknown (RFC 7009 section 2.2)" },
            "400": oauthErrorResponse("`invalid_request`"),
            "401": oauthErrorResponse("`invalid_client`"),
          },
        },
      },
      "/api/oauth/par": {
        post: {
          tags: ["OAuth"],
          summary: "Pushed authorization request (RFC 9126); offered only when the site turns it on (see discovery)",
          operationId: "pushedAuthorizationRequest",
          requestBody: formBody(
            {
              response_type: { type: "string", enum: ["code"] },
              redirect_uri: { type: "string" },
              scope: { type: "string" },
              code_challenge: { type: "string" },
              code_challenge_method: { type: "string", enum: ["S256"] },
              state: { type: "string" },
              nonce: { type: "string" },
              resource: { type: "string", enum: [issuer] },
              ...clientAuth,
            },
            ["response_type", "client_id", "redirect_uri", "scope", "code_challenge", "code_challenge_method"],
          ),
          responses: {
            "201": { description: "`request_uri` (a `urn:ietf:params:oauth:request_uri:` value) and `expires_in`" },
            "400": oauthErrorResponse("`invalid_request`, `invalid_scope` or `invalid_target`"),
            "401": oauthErrorResponse("`invalid_client`"),
            "404": { description: "The site does not offer pushed authorization requests" },
          },
        },
      },
      "/api/oauth/introspect": {
        post: {
          tags: ["OAuth"],
          summary: "Introspection (RFC 7662); `aud` shows the resource the token is bound to",
          operationId: "introspect",
          requestBody: formBody({ token: { type: "string" }, token_type_hint: { type: "string" }, ...clientAuth }, ["token", "client_id"]),
          responses: {
            "200": { description: "Whether the token is active, and its details", content: jsonContent(ref("Introspection")) },
            "400": oauthErrorResponse("`invalid_request`"),
            "401": oauthErrorResponse("`invalid_client`"),
          },
        },
      },
      "/account/graphql": {
        post: {
          tags: ["Account"],
          summary: "The member Account API (GraphQL); needs a member token with account:read bound to this origin",
          description: `Schema:\n\n\`\`\`graphql\n${ACCOUNT_SCHEMA_SDL.trim()}\n\`\`\``,
          operationId: "accountGraphql",
          security: [{ bearerAuth: [] }, { oauth2: ["account:read"] }],
          requestBody: { required: true, content: jsonContent(ref("GraphQLRequest")) },
          responses: {
            "200": { description: "GraphQL result", content: jsonContent(ref("GraphQLResponse")) },
            "400": { description: "The query could not be parsed or validated", content: jsonContent(ref("GraphQLResponse")) },
            "401": bearerChallenge,
            "403": oauthErrorResponse("`insufficient_scope`: the token lacks account:read"),
            "415": { description: "Content-Type must be application/json", content: jsonContent(ref("GraphQLResponse")) },
          },
        },
        ...Object.fromEntries(
          ["get", "put", "patch", "delete"].map((method) => [
            method,
            {
              tags: ["Account"],
              summary: "Not supported: use POST",
              operationId: `accountGraphql${method[0]?.toUpperCase() ?? ""}${method.slice(1)}`,
              responses: {
                "405": {
                  description: "Method not allowed",
                  headers: { Allow: { schema: { type: "string", enum: ["POST"] } } },
                  content: jsonContent(ref("GraphQLResponse")),
                },
              },
            },
          ]),
        ),
      },
      [MCP_PATH]: {
        post: {
          tags: ["MCP"],
          summary: `MCP server "${MCP_SERVER_NAME}" over Streamable HTTP (stateless, JSON responses)`,
          description:
            `Anonymous callers get the public tools (${PUBLIC_MCP_TOOLS.join(", ")}). ` +
            `A member token with account:read bound to this origin also gets ${MEMBER_MCP_TOOLS.join(", ")}. ` +
            "Send `Accept: application/json, text/event-stream`.",
          operationId: "mcp",
          security: [{}, { bearerAuth: [] }],
          requestBody: { required: true, content: jsonContent(ref("JsonRpcMessage")) },
          responses: {
            "200": { description: "JSON-RPC response", content: jsonContent(ref("JsonRpcMessage")) },
            "202": { description: "Notification accepted" },
            "400": { description: "Not JSON-RPC", content: jsonContent(ref("JsonRpcMessage")) },
            "401": bearerChallenge,
            "403": { description: "A browser Origin that may not call", content: jsonContent(ref("JsonRpcMessage")) },
            "406": {
              description: "The Accept header lacks application/json or text/event-stream",
              content: jsonContent(ref("JsonRpcMessage")),
            },
          },
        },
        get: mcpNotAllowed("Get"),
        delete: mcpNotAllowed("Delete"),
      },
      [DOCUMENT_PATHS.openapi]: {
        get: {
          tags: ["Documents"],
          summary: "This OpenAPI document",
          operationId: "getOpenApi",
          responses: { "200": { description: "OpenAPI 3.0.3", content: jsonContent({ type: "object" }) } },
        },
      },
      [DOCUMENT_PATHS.auth]: textDocument("Authentication walkthrough", "text/markdown"),
      [DOCUMENT_PATHS.llms]: textDocument("Agent content index", "text/plain"),
      [DOCUMENT_PATHS.pricing]: textDocument("Pricing", "text/markdown"),
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An access token from the token endpoint" },
        oauth2: {
          type: "oauth2",
          flows: {
            authorizationCode: {
              authorizationUrl: `${issuer}/oauth/authorize`,
              tokenUrl: `${issuer}/api/oauth/token`,
              refreshUrl: `${issuer}/api/oauth/token`,
              scopes,
            },
          },
        },
      },
      schemas: {
        OAuthError: {
          type: "object",
          required: ["error"],
          properties: {
            error: { type: "string" },
            error_description: { type: "string" },
            error_uri: { type: "string", format: "uri" },
          },
        },
        AuthorizationServerMetadata: {
          type: "object",
          required: ["issuer", "authorization_endpoint", "token_endpoint"],
          properties: {
            issuer: { type: "string" },
            authorization_endpoint: { type: "string" },
            token_endpoint: { type: "string" },
            registration_endpoint: { type: "string" },
            scopes_supported: { type: "array", items: { type: "string" } },
            client_id_metadata_document_supported: { type: "boolean" },
            jwks_uri: { type: "string" },
          },
          additionalProperties: true,
        },
        ProtectedResourceMetadata: {
          type: "object",
          required: ["resource", "authorization_servers"],
          properties: {
            resource: { type: "string" },
            authorization_servers: { type: "array", items: { type: "string" } },
            scopes_supported: { type: "array", items: { type: "string" } },
          },
          additionalProperties: true,
        },
        Jwks: {
          type: "object",
          required: ["keys"],
          properties: { keys: { type: "array", items: { type: "object", additionalProperties: true } } },
        },
        RegistrationRequest: {
          type: "object",
          properties: {
            client_name: { type: "string", maxLength: 200 },
            redirect_uris: { type: "array", maxItems: 10, items: { type: "string" } },
            token_endpoint_auth_method: { type: "string", enum: ["none", "client_secret_post"] },
            application_type: { type: "string", enum: ["native", "web"] },
            grant_types: { type: "array", items: { type: "string", enum: ["authorization_code", "refresh_token"] } },
            response_types: { type: "array", items: { type: "string", enum: ["code"] } },
            scope: { type: "string" },
          },
        },
        RegistrationResponse: {
          type: "object",
          required: ["client_id", "client_id_issued_at", "redirect_uris", "token_endpoint_auth_method"],
          properties: {
            client_id: { type: "string" },
            client_id_issued_at: { type: "integer" },
            client_name: { type: "string" },
            redirect_uris: { type: "array", items: { type: "string" } },
            token_endpoint_auth_method: { type: "string", enum: ["none"] },
            grant_types: { type: "array", items: { type: "string" } },
            response_types: { type: "array", items: { type: "string" } },
            application_type: { type: "string" },
            scope: { type: "string" },
          },
        },
        TokenResponse: {
          type: "object",
          required: ["access_token", "token_type", "expires_in", "refresh_token"],
          properties: {
            access_token: { type: "string" },
            token_type: { type: "string", enum: ["Bearer"] },
            expires_in: { type: "integer" },
            refresh_token: { type: "string" },
            scope: { type: "string" },
            id_token: { type: "string", description: "Authorization-code grant with openid only, ES256, 10 minutes" },
            created_at: { type: "integer" },
            school_id: { type: "string" },
            school_subdomain: { type: "string" },
          },
        },
        UserInfo: {
          type: "object",
          required: ["sub"],
          properties: {
            sub: { type: "string" },
            email: { type: "string" },
            email_verified: { type: "boolean" },
            name: { type: "string" },
            org_id: { type: "string" },
            roles: { type: "array", items: { type: "string" } },
          },
        },
        Introspection: {
          type: "object",
          required: ["active"],
          properties: {
            active: { type: "boolean" },
            scope: { type: "string" },
            client_id: { type: "string" },
            sub: { type: "string" },
            aud: { type: "string" },
            exp: { type: "integer" },
            iat: { type: "integer" },
            iss: { type: "string" },
            token_type: { type: "string" },
          },
        },
        GraphQLRequest: {
          type: "object",
          required: ["query"],
          properties: {
            query: { type: "string" },
            operationName: { type: "string", nullable: true },
            variables: { type: "object", nullable: true, additionalProperties: true },
          },
        },
        GraphQLResponse: {
          type: "object",
          properties: {
            data: { type: "object", nullable: true, additionalProperties: true },
            errors: { type: "array", items: { type: "object", properties: { message: { type: "string" } }, additionalProperties: true } },
          },
        },
        JsonRpcMessage: {
          type: "object",
          required: ["jsonrpc"],
          properties: {
            jsonrpc: { type: "string", enum: ["2.0"] },
            id: { oneOf: [{ type: "string" }, { type: "integer" }], nullable: true },
            method: { type: "string" },
            params: { type: "object", additionalProperties: true },
            result: { type: "object", additionalProperties: true },
            error: { type: "object", properties: { code: { type: "integer" }, message: { type: "string" } } },
          },
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// auth.md

const ERRORS: readonly (readonly [code: string, where: string, meaning: string])[] = [
  [
    "invalid_request",
    "authorize, token, revoke, introspect",
    "The request is malformed: a parameter is missing, repeated or of the wrong form.",
  ],
  [
    "invalid_client",
    "token, revoke, introspect (HTTP 401)",
    "Client authentication failed: unknown client, wrong or missing secret, or a secret sent by a public client.",
  ],
  [
    "invalid_grant",
    "token",
    "The authorization code or refresh token is invalid, expired, already used, revoked, or issued for other parameters.",
  ],
  ["unsupported_grant_type", "token", "Only authorization_code and refresh_token are supported."],
  ["unsupported_response_type", "authorize", "Only response_type=code is supported."],
  [
    "invalid_scope",
    "authorize, token, register",
    "A scope is unknown, not allowed for the client, or reserved to member clients " +
      "(account:read and account:write requested by an operator client).",
  ],
  ["invalid_target", "authorize, token", "The resource parameter is not this origin, or differs from the authorization request."],
  ["access_denied", "authorize", "The member denied the request on the consent page."],
  [
    "invalid_client_metadata",
    "register",
    "client_name is not a known integration and no loopback redirect URIs were given, or a metadata field is invalid.",
  ],
  [
    "invalid_redirect_uri",
    "register",
    "A redirect URI is not loopback: fixed HTTPS redirect URIs need an integration arranged with the site's operator.",
  ],
  [
    "invalid_token",
    "userinfo, account API, MCP (HTTP 401)",
    "The access token is missing (Account API), malformed, unknown, expired, revoked or bound to another origin. " +
      "The WWW-Authenticate header points at the protected-resource metadata.",
  ],
  [
    "insufficient_scope",
    "userinfo, account API (HTTP 403)",
    "The access token lacks a required scope (openid for UserInfo, account:read for the Account API).",
  ],
  ["temporarily_unavailable", "any", "The site is briefly unavailable; retry after the Retry-After delay."],
];

export function authMarkdown(state: SandboxState): string {
  const base = state.issuer;
  const accessMinutes = Math.round(state.knobs.accessTokenTtlSeconds / 60);
  const refreshDays = Math.round(state.knobs.refreshTokenTtlSeconds / 86_400);
  const idToken = state.knobs.idToken;
  const scopeRows = ALL_SCOPES.map((scope) => `| \`${scope}\` | ${scopeMeaning(scope)} |`).join("\n");
  const errorRows = ERRORS.map(([code, where, meaning]) => `| \`${code}\` | ${where} | ${meaning} |`).join("\n");
  return `# ${SCHOOL.name}: authentication

${SCHOOL.name} (${base}) is protected by OAuth 2.0 and OpenID Connect. The only way to obtain a credential is the
Authorization Code flow with PKCE (S256). This walkthrough uses this site's real addresses.

## Endpoints

The authorization-server metadata at ${base}/.well-known/oauth-authorization-server is the authority; when this page
and the metadata disagree, the metadata wins.

| purpose | address |
|---|---|
| Authorization server metadata (RFC 8414) | ${base}/.well-known/oauth-authorization-server |
| OpenID Connect discovery | ${base}/.well-known/openid-configuration |
| Protected resource metadata (RFC 9728) | ${base}/.well-known/oauth-protected-resource |
| Client registration | POST ${base}/api/oauth/register |
| Authorization | ${base}/oauth/authorize |
| Token | POST ${base}/api/oauth/token |
| UserInfo | GET ${base}/api/oauth/userinfo |
| Revocation (RFC 7009) | POST ${base}/api/oauth/revoke |
| Introspection (RFC 7662) | POST ${base}/api/oauth/introspect |
| Account API (GraphQL) | POST ${base}/account/graphql |
| MCP server (Streamable HTTP) | ${base}${MCP_PATH} |
| API description (OpenAPI 3.0) | ${base}${DOCUMENT_PATHS.openapi} |

## 1. Obtain a client_id

There is no open dynamic registration. A client_id comes from one of these routes:

- **Vendor platforms.** \`POST /api/oauth/register\` with a \`client_name\` of a known integration
  (${VENDOR_INTEGRATIONS.map((vendor) => vendor.clientName).join(", ")}) returns that integration's \`client_id\`, usable only with
  the integration's own redirect URIs.
- **Loopback clients** (CLI tools, desktop apps, local agents). Register redirect URIs of the form
  \`http://127.0.0.1:<port>/<path>\` (or \`http://[::1]:<port>/<path>\`); any port works at the authorization
  endpoint (RFC 8252 section 7.3). \`localhost\` is refused: use the IP literal. The client is public
  (\`token_endpoint_auth_method: none\`).

  \`\`\`sh
  curl -s ${base}/api/oauth/register -H 'Content-Type: application/json' \\
    -d '{"client_name":"My CLI","application_type":"native",\
"redirect_uris":["http://127.0.0.1:8765/callback"],"token_endpoint_auth_method":"none"}'
  \`\`\`

  When a request names a vendor *and* sends loopback redirect URIs that are not the vendor's, it is treated as a
  loopback client: the redirect URIs decide, a name alone never yields a vendor's client_id.
- **Fixed HTTPS redirect URIs** are refused at registration with \`invalid_redirect_uri\`; such clients need an
  integration arranged with the site's operator.
- **Client ID Metadata Documents.** Use the HTTPS URL of a JSON document describing your client as the
  \`client_id\` (the document's \`client_id\` must equal that URL). The site fetches it (no redirects, at most
  ${CIMD_MAX_BYTES} bytes) only from allowlisted hosts${
    state.knobs.cimdOpenRegistration ? " (open registration is on: any public HTTPS host)" : ""
  }. Its \`redirect_uris\` must be on the
  document's host or loopback. While unreviewed, such a client may request only identity and read scopes:
  ${UNREVIEWED_CLIENT_SCOPES.map((scope) => `\`${scope}\``).join(", ")}.
- **Member clients.** An operator creates them in the site's admin area (${base}/admin: Developers, OAuth
  applications, after enabling the "MCP connections" beta) and passes the \`client_id\` (and, for a confidential
  client, the secret) to the client's developer. Any member can then authorize it.

Clients from the vendor, loopback and metadata-document routes act for a site operator: requesting \`account:read\` or \`account:write\`
gives \`invalid_scope\`. Only member clients read a member's own data.

## 2. Send the member to the authorization endpoint

Generate a PKCE verifier (43 to 128 characters) and its S256 challenge, a \`state\` and, when you will verify an
id_token, a \`nonce\`. Member clients bind the token to this site with \`resource\` (RFC 8707):

\`\`\`
${base}/oauth/authorize?response_type=code
  &client_id=<CLIENT_ID>
  &redirect_uri=<REDIRECT_URI>
  &scope=openid%20profile%20email%20account%3Aread
  &code_challenge=<S256_CHALLENGE>&code_challenge_method=S256
  &state=<STATE>&nonce=<NONCE>
  &resource=${encodeURIComponent(base)}
\`\`\`

The member signs in and approves. The browser returns to \`redirect_uri\` with \`code\`, \`state\` and
\`iss=${base}\` (RFC 9207): check that \`iss\` equals \`${base}\` and \`state\` is yours. Codes live
${AUTHORIZATION_CODE_TTL_MS / 1000} seconds and work once.

## 3. Exchange the code

\`\`\`sh
curl -s ${base}/api/oauth/token \\
  -d grant_type=authorization_code -d code=<CODE> -d redirect_uri=<REDIRECT_URI> \\
  -d code_verifier=<VERIFIER> -d client_id=<CLIENT_ID> -d client_secret=<SECRET_IF_CONFIDENTIAL> \\
  --data-urlencode resource=${base}
\`\`\`

Confidential clients authenticate with \`client_secret_post\` (the secret in the form body; HTTP Basic is
refused). Public clients send only \`client_id\`. Repeat \`resource\` when you sent it to the authorization endpoint.
The response has \`access_token\` (about ${accessMinutes} minutes), \`refresh_token\`, \`expires_in\`, \`scope\`, and
extra fields \`created_at\`, \`school_id\`, \`school_subdomain\`.

${
  idToken
    ? `With \`openid\`, the response also has an \`id_token\`: ES256, key \`kid\` at ${base}${JWKS_PATH}, \
valid ${ID_TOKEN_TTL_SECONDS / 60} minutes;
check \`iss\` = ${base}, \`aud\` = your client_id, \`exp\` and \`nonce\`. The site changes its signing key now and then
(a new \`kid\`): fetch the key set again when an id_token names a \`kid\` you do not know.`
    : `This site currently issues no id_token (discovery lists no \`id_token_signing_alg_values_supported\`): use UserInfo.`
}

## 4. Call the APIs

Send \`Authorization: Bearer <ACCESS_TOKEN>\`.

- UserInfo: \`GET ${base}/api/oauth/userinfo\` returns \`sub\`, \`name\`, \`email\`, \`email_verified\`, \`org_id\`, \`roles\`.
- Account API: \`POST ${base}/account/graphql\` with \
\`{"query":"{ viewer { email enrolledCourses(first: 20) { nodes { slug expireDate hasLifetimeAccess \
lastWatchedLecture { lectureId positionSeconds } } } } }"}\`.
  It needs a member token with \`account:read\` bound to ${base}; pages hold at most 100 items.
- MCP: \`${base}${MCP_PATH}\` (Streamable HTTP). Without a token: ${PUBLIC_MCP_TOOLS.map((tool) => `\`${tool}\``).join(", ")}. With
  the same member token: also ${MEMBER_MCP_TOOLS.map((tool) => `\`${tool}\``).join(", ")}.

A token bound to another origin is refused with 401 \`invalid_token\` and a \`resource_metadata\` pointer.

## 5. Refresh and revoke

\`grant_type=refresh_token\` with \`refresh_token\` and your client authentication returns new tokens. Refresh tokens
rotate: each refresh returns a new one and the old one stops working at once; presenting a used one again revokes
the whole grant. Refresh tokens live ${refreshDays} days. Refresh responses carry no id_token.

Revoke with \`POST ${base}/api/oauth/revoke\` (\`token\`, \`client_id\`, and the secret for confidential
clients). The answer is an empty 200, even for an unknown token. Revoking a refresh token ends its access tokens too.

## Scopes

| scope | grants |
|---|---|
${scopeRows}

\`${MEMBER_ONLY_SCOPES.join("` and `")}\` are reserved to member clients.

## Errors

OAuth endpoints answer \`{"error": "...", "error_description": "...", "error_uri": "${base}${DOCUMENT_PATHS.auth}#errors"}\`
(RFC 6749 section 5.2): HTTP 400, or 401 for \`invalid_client\`. Protected resources answer with a
\`WWW-Authenticate: Bearer\` challenge that names \`resource_metadata\`.

| error | where | meaning |
|---|---|---|
${errorRows}

The ID-JAG identity-assertion extension is not supported: consent is interactive at the authorization endpoint.
`;
}

// ---------------------------------------------------------------------------------------------------------------
// llms.txt and pricing.md

export function llmsText(state: SandboxState): string {
  const base = state.issuer;
  return `# ${SCHOOL.name}

> ${SCHOOL.name} is an online-learning site (a sandbox of one) selling ${COURSES.length} video courses, memberships, \
event tickets and digital products. Members sign in with OAuth 2.0 / OpenID Connect; \
agents can browse the catalog anonymously through MCP and read a member's own enrollments, \
orders and event registrations with the member's consent.

The authorization-server metadata at ${base}/.well-known/oauth-authorization-server is the authority for endpoints and scopes. \
Use the Authorization Code flow with PKCE (S256); there is no open dynamic registration.

## Docs

- [Authentication](${base}${DOCUMENT_PATHS.auth}): how to obtain a client_id, authorize, exchange, refresh and revoke; scopes and errors
- [OpenAPI description](${base}${DOCUMENT_PATHS.openapi}): every HTTP endpoint of the Site Access API (OpenAPI 3.0.3)
- [Pricing](${base}${DOCUMENT_PATHS.pricing}): every course, membership, ticket and digital product with its price

## MCP

- [MCP server](${base}${MCP_PATH}): "${MCP_SERVER_NAME}" over Streamable HTTP; anonymous tools ${PUBLIC_MCP_TOOLS.join(", ")}; \
with a member token (account:read) also ${MEMBER_MCP_TOOLS.join(", ")}

## Optional

- [Authorization server metadata](${base}/.well-known/oauth-authorization-server): RFC 8414
- [OpenID configuration](${base}/.well-known/openid-configuration): OpenID Connect Discovery
- [Protected resource metadata](${base}/.well-known/oauth-protected-resource): RFC 9728
`;
}

function tableCell(value: string): string {
  return value.replace(/\|/g, "\\|");
}

export function pricingMarkdown(state: SandboxState): string {
  const base = state.issuer;
  const courseRows = COURSES.map((course) => {
    const plan = coursePlan(course);
    const link = `[${tableCell(course.name)}](${base}/courses/${course.slug})`;
    return `| ${link} | ${course.lectures.length} | ${plan.access} | ${formatPrice(plan)} |`;
  }).join("\n");
  const productRows = (kind: string) =>
    PRODUCTS.filter((product) => product.kind === kind)
      .map((product) => `| ${tableCell(product.name)} | ${tableCell(product.description)} | ${formatPrice(product)} ${product.billing} |`)
      .join("\n");
  return `# ${SCHOOL.name}: pricing

Prices in New Taiwan dollars (NT$) unless marked US$. Taxes included. Generated from the site's catalog.

## Memberships

| plan | what you get | price |
|---|---|---|
${productRows("MembershipPlan")}

## Courses

Each course is bought once, for the access period shown.

| course | lectures | access | price |
|---|---|---|---|
${courseRows}

## Event tickets

| event | about | price |
|---|---|---|
${productRows("Ticket")}

## Digital products

| product | about | price |
|---|---|---|
${productRows("DigitalProduct")}
`;
}

export function registerDocumentRoutes(app: Hono, state: SandboxState): void {
  // Generated from knobs and the issuer, which can change at runtime: revalidate.
  const headers = (contentType: string) => ({ "Content-Type": contentType, "Cache-Control": "no-cache" });
  app.get(DOCUMENT_PATHS.openapi, (c) =>
    c.body(JSON.stringify(openApiDocument(state), null, 2), 200, headers("application/json; charset=utf-8")),
  );
  app.get(DOCUMENT_PATHS.auth, (c) => c.body(authMarkdown(state), 200, headers("text/markdown; charset=utf-8")));
  app.get(DOCUMENT_PATHS.llms, (c) => c.body(llmsText(state), 200, headers("text/plain; charset=utf-8")));
  app.get(DOCUMENT_PATHS.pricing, (c) => c.body(pricingMarkdown(state), 200, headers("text/markdown; charset=utf-8")));
}
