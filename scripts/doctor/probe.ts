/**
 * The doctor's one chokepoint to the site: every request it makes goes through `siteFetch`, bounded by the
 * timeout given on the command line and never following a redirect unless asked to. `takeSnapshot` gathers
 * what the checks judge (discovery documents, the key set, anonymous answers of the Account API, MCP and
 * the authorization endpoint) so that the checks themselves stay free of I/O.
 *
 * No token or secret is ever sent: every request is anonymous (with a client_id, the token endpoint gets a
 * refresh grant for a token that cannot exist, without the secret, to see how it refuses one).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import * as oauth from "oauth4webapi";

import { UNAUTHENTICATED_CODES } from "../../lib/account-api/graphql-codes";
import { DEFAULT_SCOPES, isLoopbackHost } from "../../lib/config/env-schema";
import { lostMcpSession } from "../../lib/site/mcp-session";

export type JsonObject = Record<string, unknown>;

/** A JSON document the site serves, or a plain-words reason why it could not be read. */
export type JsonDocument =
  | { kind: "json"; url: string; json: JsonObject }
  | { kind: "problem"; url: string; reason: string; /** The HTTP status, when the site answered one. */ status?: number };

/** An HTTP answer reduced to what the checks need (the body is never kept: the site's text is not shown). */
export type HttpProbe =
  | {
      kind: "response";
      url: string;
      status: number;
      location: string | undefined;
      wwwAuthenticate: string | undefined;
      /** The Account API's probe only: the body is a GraphQL error coded UNAUTHENTICATED. */
      unauthenticatedError?: boolean;
    }
  | { kind: "unreachable"; url: string; reason: string };

export type McpProbe =
  | { kind: "connected"; url: string; serverName: string; serverVersion: string; toolCount: number }
  | { kind: "problem"; url: string; reason: string };

export interface AuthorizationProbe {
  clientId: string;
  redirectUri: string;
  scope: string;
  answer: HttpProbe;
}

export interface SiteSnapshot {
  /** The site's origin, as the dashboard would use it for SITE_URL. */
  site: string;
  /** The issuer the dashboard expects the metadata to name, exactly: SITE_ISSUER, else the origin. */
  issuer: string;
  authorizationServer: JsonDocument;
  openidConfiguration: JsonDocument;
  protectedResource: JsonDocument;
  /** Fetched when discovery names a `jwks_uri`. */
  jwks: JsonDocument | undefined;
  accountApi: HttpProbe;
  mcp: McpProbe;
  /** Probed when a client_id was given. */
  authorization: AuthorizationProbe | undefined;
  /** How the token endpoint refuses a refresh token it does not know (no secret is sent). */
  refreshRefusal: RefreshRefusalProbe | undefined;
}

/** The token endpoint's answer to an unknown refresh token: its status, and whether the body is an RFC 6749 section 5.2 error. */
export type RefreshRefusalProbe =
  { kind: "response"; url: string; status: number; oauthErrorBody: boolean } | { kind: "unreachable"; url: string; reason: string };

export interface SnapshotOptions {
  /** Bound on each request (and on the MCP handshake as a whole). */
  timeoutMs: number;
  clientId?: string | undefined;
  redirectUri?: string | undefined;
  scope?: string | undefined;
  /** SITE_ISSUER, when given: the issuer the metadata must name (default: the origin). */
  issuer?: string | undefined;
}

/** Bodies larger than this are not read: discovery documents and key sets are a few kilobytes. */
const MAX_BODY_BYTES = 1024 * 1024;

export const DOCTOR_CLIENT_INFO = { name: "site-access-doctor", version: "1.0.0" } as const;

/** A failure to get any HTTP answer, in plain words. */
export class UnreachableError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "UnreachableError";
  }
}

/** Plain http is allowed only for loopback hosts, as in the dashboard (lib/config/env-schema.ts). */
export function isAllowedScheme(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === "string" && /^[A-Z0-9_]{2,40}$/.test(cause.code) ? cause.code : undefined;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "the host name does not resolve";
  if (code?.startsWith("CERT_") || code?.includes("CERT") || code?.startsWith("ERR_TLS")) return `TLS certificate problem (${code})`;
  return code ? `could not connect (${code})` : "could not connect";
}

/**
 * The chokepoint: one request to the site with a timeout (merged with any caller signal) and, unless the
 * caller says otherwise, no redirect following. Throws `UnreachableError` when no HTTP answer came.
 */
export async function siteFetch(url: string | URL, init: RequestInit, timeoutMs: number): Promise<Response> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  try {
    return await fetch(url, { redirect: "manual", ...init, signal });
  } catch (error) {
    throw new UnreachableError(describeFetchError(error, timeoutMs));
  }
}

/** Reads at most MAX_BODY_BYTES of the body (the timeout signal of the request still applies). */
async function readText(response: Response, timeoutMs: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        throw new UnreachableError(`the answer is larger than ${MAX_BODY_BYTES / 1024} KB`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof UnreachableError) throw error;
    throw new UnreachableError(describeFetchError(error, timeoutMs));
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function mediaType(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/**
 * Fetches a JSON document by the rules oauth4webapi applies to discovery: HTTP 200 without redirects,
 * `application/json` (or one of `extraTypes`), a JSON object.
 */
export async function fetchJsonDocument(url: string, timeoutMs: number, extraTypes: readonly string[] = []): Promise<JsonDocument> {
  let response: Response;
  let text: string;
  try {
    response = await siteFetch(url, { headers: { accept: "application/json" } }, timeoutMs);
    text = await readText(response, timeoutMs);
  } catch (error) {
    return { kind: "problem", url, reason: error instanceof UnreachableError ? error.reason : "could not be read" };
  }
  if (response.status >= 300 && response.status < 400) {
    return { kind: "problem", url, reason: `answered HTTP ${response.status}, a redirect (it must be served directly)` };
  }
  if (response.status !== 200) return { kind: "problem", url, reason: `answered HTTP ${response.status}`, status: response.status };
  const type = mediaType(response);
  if (type !== "application/json" && !extraTypes.includes(type)) {
    return {
      kind: "problem",
      url,
      reason: `answered ${type === "" ? "without a content type" : JSON.stringify(type.slice(0, 60))} instead of application/json`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "problem", url, reason: "answered with malformed JSON" };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return { kind: "problem", url, reason: "answered JSON that is not an object" };
  }
  return { kind: "json", url, json: json as JsonObject };
}

/**
 * One request whose status and headers matter; its body is read only for `judgeBody`, which keeps what
 * it finds there (never the text itself).
 */
async function probeHttp(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  judgeBody?: (text: string) => Pick<Extract<HttpProbe, { kind: "response" }>, "unauthenticatedError">,
): Promise<HttpProbe> {
  try {
    const response = await siteFetch(url, init, timeoutMs);
    const judged = judgeBody ? judgeBody(await readText(response, timeoutMs)) : {};
    if (!judgeBody) await response.body?.cancel();
    return {
      kind: "response",
      url,
      status: response.status,
      location: response.headers.get("location") ?? undefined,
      wwwAuthenticate: response.headers.get("www-authenticate") ?? undefined,
      ...judged,
    };
  } catch (error) {
    return { kind: "unreachable", url, reason: error instanceof UnreachableError ? error.reason : "could not connect" };
  }
}

/** An anonymous GraphQL request: the Account API has no anonymous mode and must challenge it (or say UNAUTHENTICATED). */
export function probeAccountApi(site: string, timeoutMs: number): Promise<HttpProbe> {
  return probeHttp(
    `${site}/account/graphql`,
    {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    },
    timeoutMs,
    (text) => ({ unauthenticatedError: isUnauthenticatedError(text) }),
  );
}

/** A GraphQL answer whose errors include one coded UNAUTHENTICATED (or Hot Chocolate's code for it), as GraphQL servers refuse a caller. */
function isUnauthenticatedError(text: string): boolean {
  try {
    const errors = (JSON.parse(text) as { errors?: unknown } | null)?.errors;
    return (
      Array.isArray(errors) &&
      errors.some((error) => UNAUTHENTICATED_CODES.has((error as { extensions?: { code?: unknown } } | null)?.extensions?.code))
    );
  } catch {
    return false;
  }
}

const MCP_SESSION_LOST =
  "lost the session it had just given (HTTP 404 to the next request naming it): a restarted server, or instances " +
  "behind a load balancer that do not share sessions, which must then send each session to one instance; the " +
  "dashboard starts one new session and otherwise calls the server unreachable";

/** Connects anonymously with the official MCP client and lists the tools. */
export async function probeMcp(site: string, timeoutMs: number): Promise<McpProbe> {
  const url = `${site}/mcp`;
  let lastFailure: string | undefined;
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (input, init) => {
      try {
        const response = await siteFetch(input, init ?? {}, timeoutMs);
        if (response.status >= 400 && (init?.method ?? "GET") === "POST") lastFailure = `answered HTTP ${response.status}`;
        if (lostMcpSession(response.status, init?.headers)) lastFailure = MCP_SESSION_LOST;
        return response;
      } catch (error) {
        if (error instanceof UnreachableError) lastFailure = error.reason;
        throw error;
      }
    },
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
  });
  const client = new Client(DOCTOR_CLIENT_INFO, { capabilities: {} });
  // The transport reports background problems (such as the optional SSE stream) here; the outcome is judged below.
  client.onerror = () => undefined;
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    await client.connect(transport, { timeout: timeoutMs, signal: deadline });
    const server = client.getServerVersion();
    let toolCount = 0;
    let cursor: string | undefined;
    for (let page = 0; page < 20; page += 1) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs, signal: deadline });
      toolCount += result.tools.length;
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return {
      kind: "connected",
      url,
      serverName: typeof server?.name === "string" ? server.name : "unnamed server",
      serverVersion: typeof server?.version === "string" ? server.version : "",
      toolCount,
    };
  } catch {
    const reason = lastFailure ?? (deadline.aborted ? `no answer within ${timeoutMs} ms` : "did not complete the MCP handshake");
    return { kind: "problem", url, reason };
  } finally {
    // MCP Streamable HTTP, session management: a session the server gave is ended, not left open at the site.
    if (transport.sessionId !== undefined && !deadline.aborted) await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
  }
}

/**
 * What the dashboard's sign-in would send (lib/auth/login.ts), without following the answer: PKCE S256,
 * state, nonce, scope and resource. No session, cookie or credential is involved.
 */
export async function probeAuthorization(
  site: string,
  authorizationEndpoint: string,
  request: { clientId: string; redirectUri: string; scope: string },
  timeoutMs: number,
): Promise<AuthorizationProbe> {
  const url = new URL(authorizationEndpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", request.clientId);
  url.searchParams.set("redirect_uri", request.redirectUri);
  url.searchParams.set("scope", request.scope);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", oauth.generateRandomState());
  url.searchParams.set("nonce", oauth.generateRandomNonce());
  url.searchParams.set("resource", site);
  const answer = await probeHttp(url.toString(), { headers: { accept: "text/html" } }, timeoutMs);
  return { ...request, answer: { ...answer, url: authorizationEndpoint } };
}

/**
 * The metadata as the dashboard sees it (lib/auth/discovery.ts): the OpenID configuration, when its issuer is
 * the site's (`issuer`, exactly), overlaid by the authorization-server metadata, which prevails (RFC 8414 is
 * the authority). `undefined` when the authorization-server metadata could not be read.
 */
export function mergeMetadata(
  issuer: string,
  authorizationServer: JsonDocument,
  openidConfiguration: JsonDocument,
): JsonObject | undefined {
  // A site without an RFC 8414 document (404): the OpenID configuration is the authority, when its issuer is the site.
  if (authorizationServer.kind !== "json") {
    return isOpenIdOnly(issuer, authorizationServer, openidConfiguration) && openidConfiguration.kind === "json"
      ? openidConfiguration.json
      : undefined;
  }
  const openid = openidConfiguration.kind === "json" && openidConfiguration.json.issuer === issuer ? openidConfiguration.json : {};
  return { ...openid, ...authorizationServer.json };
}

/** The site publishes no RFC 8414 document (404) but an OpenID configuration naming it: the dashboard falls back to that one. */
export function isOpenIdOnly(issuer: string, authorizationServer: JsonDocument, openidConfiguration: JsonDocument): boolean {
  return (
    authorizationServer.kind === "problem" &&
    authorizationServer.status === 404 &&
    openidConfiguration.kind === "json" &&
    openidConfiguration.json.issuer === issuer
  );
}

/**
 * Sends the token endpoint a refresh grant with a token that cannot exist (and no secret): a site refuses
 * it with 400 or 401; the answer shows whether it carries the JSON error of RFC 6749 section 5.2.
 */
export async function probeRefreshRefusal(tokenEndpoint: string, clientId: string, timeoutMs: number): Promise<RefreshRefusalProbe> {
  try {
    const response = await siteFetch(
      tokenEndpoint,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "site-access-doctor-unknown", client_id: clientId }),
      },
      timeoutMs,
    );
    let oauthErrorBody = false;
    try {
      const json = JSON.parse(await readText(response, timeoutMs)) as unknown;
      oauthErrorBody = typeof json === "object" && json !== null && typeof (json as JsonObject).error === "string";
    } catch {
      oauthErrorBody = false;
    }
    return { kind: "response", url: tokenEndpoint, status: response.status, oauthErrorBody };
  } catch (error) {
    return { kind: "unreachable", url: tokenEndpoint, reason: error instanceof UnreachableError ? error.reason : "could not connect" };
  }
}

function stringField(metadata: JsonObject | undefined, name: string): string | undefined {
  const value = metadata?.[name];
  return typeof value === "string" ? value : undefined;
}

/** The endpoint the dashboard would use: from the metadata when it is a usable URL, else the documented path. */
function authorizationEndpointOf(site: string, metadata: JsonObject | undefined): string {
  const listed = stringField(metadata, "authorization_endpoint");
  if (listed !== undefined && URL.canParse(listed) && isAllowedScheme(new URL(listed))) return listed;
  return `${site}/oauth/authorize`;
}

/** Gathers everything the checks judge. Never throws: every problem becomes part of the snapshot. */
export async function takeSnapshot(site: string, options: SnapshotOptions): Promise<SiteSnapshot> {
  const { timeoutMs } = options;
  const issuer = options.issuer ?? site;
  const [authorizationServer, openidConfiguration, protectedResource, accountApi, mcp] = await Promise.all([
    fetchJsonDocument(`${site}/.well-known/oauth-authorization-server`, timeoutMs),
    fetchJsonDocument(`${site}/.well-known/openid-configuration`, timeoutMs),
    fetchJsonDocument(`${site}/.well-known/oauth-protected-resource`, timeoutMs),
    probeAccountApi(site, timeoutMs),
    probeMcp(site, timeoutMs),
  ]);

  const metadata = mergeMetadata(issuer, authorizationServer, openidConfiguration);
  const jwksUri = stringField(metadata, "jwks_uri");
  let jwks: JsonDocument | undefined;
  if (jwksUri !== undefined) {
    if (!URL.canParse(jwksUri)) jwks = { kind: "problem", url: jwksUri, reason: "jwks_uri is not a URL" };
    else if (!isAllowedScheme(new URL(jwksUri))) jwks = { kind: "problem", url: jwksUri, reason: "jwks_uri does not use https" };
    else jwks = await fetchJsonDocument(jwksUri, timeoutMs, ["application/jwk-set+json"]);
  }

  let authorization: AuthorizationProbe | undefined;
  if (options.clientId !== undefined && options.redirectUri !== undefined) {
    authorization = await probeAuthorization(
      site,
      authorizationEndpointOf(site, metadata),
      { clientId: options.clientId, redirectUri: options.redirectUri, scope: options.scope ?? DEFAULT_SCOPES },
      timeoutMs,
    );
  }

  const tokenEndpoint = stringField(metadata, "token_endpoint");
  // Only when asked about a client: the token endpoint is otherwise never touched.
  const refreshRefusal =
    options.clientId !== undefined && tokenEndpoint !== undefined && URL.canParse(tokenEndpoint) && isAllowedScheme(new URL(tokenEndpoint))
      ? await probeRefreshRefusal(tokenEndpoint, options.clientId, timeoutMs)
      : undefined;

  return {
    site,
    issuer,
    authorizationServer,
    openidConfiguration,
    protectedResource,
    jwks,
    accountApi,
    mcp,
    authorization,
    refreshRefusal,
  };
}
