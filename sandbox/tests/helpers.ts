import { createHash, randomBytes } from "node:crypto";
import { SEEDED_DASHBOARD_CLIENT, SEEDED_OPERATOR_CLIENT, SEEDED_PUBLIC_CLIENT } from "../seed";
import type { RunningSandbox } from "../server";
import { authorizeWithoutBrowser } from "../testing";

export const DASHBOARD_REDIRECT = "http://localhost:3000/api/auth/callback";

export type ClientKind = "dashboard" | "public" | "operator";

export function clientFor(kind: ClientKind): { clientId: string; redirectUri: string; secret?: string } {
  if (kind === "dashboard") {
    return { clientId: SEEDED_DASHBOARD_CLIENT.clientId, redirectUri: DASHBOARD_REDIRECT, secret: SEEDED_DASHBOARD_CLIENT.clientSecret };
  }
  if (kind === "public") return { clientId: SEEDED_PUBLIC_CLIENT.clientId, redirectUri: SEEDED_PUBLIC_CLIENT.redirectUri };
  return { clientId: SEEDED_OPERATOR_CLIENT.clientId, redirectUri: SEEDED_OPERATOR_CLIENT.redirectUri };
}

export function newPkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Builds an authorization URL; `undefined` values are left out. */
export function authorizeUrl(base: string, params: Record<string, string | undefined>): string {
  const url = new URL("/oauth/authorize", base);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(key, value);
  return url.toString();
}

export interface CodeOptions {
  client?: ClientKind;
  scope?: string;
  /** `null`: do not send resource. Default: the sandbox origin. */
  resource?: string | null;
  /** `null`: do not send nonce. */
  nonce?: string | null;
  email?: string;
  /** With the partialConsent knob: the scopes left ticked on the consent page. */
  grantScopes?: readonly string[];
}

export interface CodeResult {
  code: string;
  verifier: string;
  redirectUri: string;
  state: string;
  nonce: string | undefined;
  location: URL;
  clientId: string;
  secret?: string;
}

export async function obtainCode(sandbox: RunningSandbox, options: CodeOptions = {}): Promise<CodeResult> {
  const client = clientFor(options.client ?? "dashboard");
  const { verifier, challenge } = newPkce();
  const state = randomBytes(8).toString("hex");
  const nonce = options.nonce === null ? undefined : (options.nonce ?? randomBytes(8).toString("hex"));
  const url = authorizeUrl(sandbox.url, {
    response_type: "code",
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: options.scope ?? "openid profile email account:read",
    code_challenge: challenge,
    code_challenge_method: "S256",
    state,
    nonce,
    resource: options.resource === null ? undefined : (options.resource ?? sandbox.url),
  });
  const location = await authorizeWithoutBrowser(url, {
    email: options.email ?? "maya@example.com",
    ...(options.grantScopes ? { grantScopes: options.grantScopes } : {}),
  });
  const code = location.searchParams.get("code");
  if (code === null) throw new Error(`no code in ${location.toString()}`);
  return {
    code,
    verifier,
    redirectUri: client.redirectUri,
    state,
    nonce,
    location,
    clientId: client.clientId,
    ...(client.secret ? { secret: client.secret } : {}),
  };
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function postForm(
  url: string,
  fields: Record<string, string | undefined>,
  headers: Record<string, string> = {},
): Promise<JsonResponse> {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body.append(key, value);
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: body.toString(),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

export function exchangeCode(
  sandbox: RunningSandbox,
  code: CodeResult,
  overrides: Record<string, string | undefined> = {},
): Promise<JsonResponse> {
  return postForm(`${sandbox.url}/api/oauth/token`, {
    grant_type: "authorization_code",
    code: code.code,
    redirect_uri: code.redirectUri,
    code_verifier: code.verifier,
    client_id: code.clientId,
    client_secret: code.secret,
    resource: sandbox.url,
    ...overrides,
  });
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  idToken: string | undefined;
  body: Record<string, unknown>;
  code: CodeResult;
}

export async function obtainTokens(sandbox: RunningSandbox, options: CodeOptions = {}): Promise<Tokens> {
  const code = await obtainCode(sandbox, options);
  const response = await exchangeCode(
    sandbox,
    code,
    options.resource === null ? { resource: undefined } : options.resource ? { resource: options.resource } : {},
  );
  if (response.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(response.body)}`);
  return {
    accessToken: String(response.body.access_token),
    refreshToken: String(response.body.refresh_token),
    idToken: typeof response.body.id_token === "string" ? response.body.id_token : undefined,
    body: response.body,
    code,
  };
}

export function refreshTokens(
  sandbox: RunningSandbox,
  refreshToken: string,
  overrides: Record<string, string | undefined> = {},
): Promise<JsonResponse> {
  return postForm(`${sandbox.url}/api/oauth/token`, {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: SEEDED_DASHBOARD_CLIENT.clientId,
    client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
    ...overrides,
  });
}

export async function graphql(
  sandbox: RunningSandbox,
  token: string | undefined,
  query: string,
  variables?: Record<string, unknown>,
): Promise<{
  status: number;
  headers: Headers;
  body: {
    data?: unknown;
    errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
    error?: string;
  };
}> {
  const response = await fetch(`${sandbox.url}/account/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as never };
}

export async function userinfo(
  sandbox: RunningSandbox,
  token: string,
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}
