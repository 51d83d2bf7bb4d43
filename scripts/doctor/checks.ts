/**
 * The doctor's checks: each judges one thing the dashboard needs from the site, by the same rules the
 * dashboard applies (lib/config/env-schema.ts, lib/auth/discovery.ts, lib/auth/id-token.ts), over a
 * snapshot taken once by probe.ts. No check does I/O; each returns a status with a plain-words reason.
 */
import { isIssuerOfOrigin, isLoopbackHost } from "../../lib/config/env-schema";
import { LOCALES, uiLocalesFor } from "../../lib/i18n/locales";

import { isOpenIdOnly, mergeMetadata } from "./probe";
import type { HttpProbe, JsonDocument, JsonObject, SiteSnapshot } from "./probe";

export type CheckStatus = "PASS" | "WARN" | "FAIL";

export type CheckId =
  | "site-url"
  | "site-issuer"
  | "authorization-server-metadata"
  | "openid-configuration"
  | "pkce-s256"
  | "client-secret-post"
  | "account-read-scope"
  | "id-token"
  | "userinfo-endpoint"
  | "iss-parameter"
  | "revocation-endpoint"
  | "endpoint-origins"
  | "protected-resource-metadata"
  | "account-api"
  | "mcp"
  | "client-registration"
  | "refresh-refusal"
  | "granted-scopes"
  | "pushed-authorization-requests"
  | "dpop"
  | "sign-in-languages"
  | "redis-sentinel";

export interface CheckResult {
  id: CheckId;
  status: CheckStatus;
  title: string;
  detail: string;
}

/** The only id_token signature algorithm the dashboard accepts (lib/auth/id-token.ts). */
export const ID_TOKEN_ALGORITHM = "ES256";
export const REQUIRED_SCOPE = "account:read";
export const CLIENT_AUTH_METHOD = "client_secret_post";

const pass = (id: CheckId, title: string, detail: string): CheckResult => ({ id, status: "PASS", title, detail });
const warn = (id: CheckId, title: string, detail: string): CheckResult => ({ id, status: "WARN", title, detail });
const fail = (id: CheckId, title: string, detail: string): CheckResult => ({ id, status: "FAIL", title, detail });

/** A value from the site, shown quoted, escaped (no terminal control characters) and shortened. */
export function quote(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}

/** A list from the site, each value quoted and escaped, at most ten shown. */
export function quoteList(values: readonly string[]): string {
  const shown = values.slice(0, 10).map(quote);
  if (values.length > 10) shown.push(`and ${values.length - 10} more`);
  return `[${shown.join(", ")}]`;
}

function stringList(metadata: JsonObject, name: string): string[] | undefined {
  const value = metadata[name];
  if (!Array.isArray(value)) return undefined;
  return value.filter((item): item is string => typeof item === "string");
}

function stringValue(metadata: JsonObject, name: string): string | undefined {
  const value = metadata[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The metadata the dashboard would use, or the check that says why there is none. */
function withMetadata(snapshot: SiteSnapshot, id: CheckId, title: string, judge: (metadata: JsonObject) => CheckResult): CheckResult {
  const metadata = mergeMetadata(snapshot.issuer, snapshot.authorizationServer, snapshot.openidConfiguration);
  if (!metadata) return fail(id, title, "cannot be checked: the authorization-server metadata could not be read");
  return judge(metadata);
}

export type OriginParse = { ok: true; origin: string } | { ok: false; reason: string };

/**
 * An origin as the dashboard accepts SITE_URL and APP_URL: an origin (no path, query, fragment or credentials),
 * https, or plain http for a loopback host only.
 * @see RFC 9700 section 2.6 (TLS), lib/config/env-schema.ts
 */
export function parseOrigin(input: string): OriginParse {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: `${quote(input)} is not a URL` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, reason: `${quote(input)} must use https` };
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return { ok: false, reason: `${quote(input)} must use https (plain http is accepted only for localhost and 127.0.0.1)` };
  }
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || url.username || url.password) {
    return {
      ok: false,
      reason: `${quote(input)} must be an origin only, without path, query, fragment or credentials (try ${url.origin})`,
    };
  }
  return { ok: true, origin: url.origin };
}

/** Check 1: the site URL is well-formed. */
export function checkSiteUrl(input: string): CheckResult {
  const title = "Site URL";
  const parsed = parseOrigin(input);
  if (!parsed.ok) return fail("site-url", title, parsed.reason);
  const scheme = parsed.origin.startsWith("https:") ? "an https origin" : "a loopback http origin (local use only)";
  return pass("site-url", title, `${parsed.origin} is ${scheme}`);
}

/** With --issuer (SITE_ISSUER): it is the origin followed by "/", as the dashboard accepts it (lib/config/env-schema.ts). */
export function checkIssuerSetting(origin: string, issuer: string): CheckResult {
  const title = "Site issuer (SITE_ISSUER)";
  if (!isIssuerOfOrigin(issuer, origin)) {
    return fail("site-issuer", title, `${quote(issuer)} must be ${origin} or ${origin}/: the issuer as the site's metadata writes it`);
  }
  return pass("site-issuer", title, `the metadata must name ${issuer}, exactly`);
}

/**
 * Check 2: the authorization-server metadata is reachable, JSON, and names the site itself as issuer.
 * @see RFC 8414 section 3.3 (the issuer must be identical to the URL the metadata was requested for)
 */
export function checkAuthorizationServerMetadata(snapshot: SiteSnapshot): CheckResult {
  const id = "authorization-server-metadata";
  const title = "Authorization server metadata";
  const document = snapshot.authorizationServer;
  if (isOpenIdOnly(snapshot.issuer, document, snapshot.openidConfiguration)) {
    // lib/auth/discovery.ts: a 404 here makes the dashboard use the OpenID configuration, same exact-issuer rule.
    return warn(
      id,
      title,
      `${document.url} answered HTTP 404: no RFC 8414 document; ` +
        `the dashboard uses the OpenID configuration instead (issuer ${snapshot.issuer})`,
    );
  }
  if (document.kind !== "json") {
    return fail(
      id,
      title,
      `${document.url}: ${document.reason}; the dashboard cannot sign anyone in without it (the checks of its contents were skipped)`,
    );
  }
  const issuer = document.json.issuer;
  if (issuer !== snapshot.issuer) {
    // The site writes its issuer with the path "/": the operator names it so (SITE_ISSUER), compared exactly.
    const slashHint =
      issuer === `${snapshot.site}/`
        ? `; if that is how the site writes its issuer, set SITE_ISSUER=${issuer} (doctor: --issuer ${issuer})`
        : "";
    return fail(
      id,
      title,
      `issuer is ${issuer === undefined ? "missing" : quote(issuer)} but must be exactly ${snapshot.issuer} (RFC 8414 section 3.3); ` +
        `the dashboard refuses this site${slashHint}`,
    );
  }
  const missing = ["authorization_endpoint", "token_endpoint"].filter((name) => stringValue(document.json, name) === undefined);
  if (missing.length > 0) return fail(id, title, `the metadata lacks ${missing.join(" and ")}`);
  return pass(id, title, `issuer is ${snapshot.issuer}`);
}

/** Check 3: the OpenID configuration, optional (UserInfo still works without it) but consistent when present. */
export function checkOpenIdConfiguration(snapshot: SiteSnapshot): CheckResult {
  const id = "openid-configuration";
  const title = "OpenID configuration";
  const document = snapshot.openidConfiguration;
  if (document.kind !== "json") {
    return warn(
      id,
      title,
      `${document.url}: ${document.reason}; the dashboard uses the authorization-server metadata and UserInfo instead`,
    );
  }
  if (document.json.issuer !== snapshot.issuer) {
    const issuer = document.json.issuer;
    return warn(
      id,
      title,
      `issuer is ${issuer === undefined ? "missing" : quote(issuer)}, not ${snapshot.issuer}; the dashboard ignores this document`,
    );
  }
  return pass(id, title, `issuer is ${snapshot.issuer}`);
}

/**
 * Check 4: PKCE with S256, which the dashboard always uses.
 * @see RFC 7636 section 4.2, RFC 9700 section 2.1.1
 */
export function checkPkceS256(snapshot: SiteSnapshot): CheckResult {
  const id = "pkce-s256";
  const title = "PKCE S256";
  return withMetadata(snapshot, id, title, (metadata) => {
    const methods = stringList(metadata, "code_challenge_methods_supported");
    if (methods === undefined)
      return fail(id, title, "code_challenge_methods_supported is not listed, so PKCE is not advertised; the dashboard requires S256");
    if (!methods.includes("S256")) return fail(id, title, `code_challenge_methods_supported is ${quoteList(methods)}, without S256`);
    return pass(id, title, "code_challenge_methods_supported includes S256");
  });
}

/**
 * Check 5: the token endpoint accepts `client_secret_post`, how the dashboard authenticates.
 * @see RFC 8414 section 2 (an absent list means client_secret_basic only)
 */
export function checkClientSecretPost(snapshot: SiteSnapshot): CheckResult {
  const id = "client-secret-post";
  const title = "Client authentication";
  return withMetadata(snapshot, id, title, (metadata) => {
    const methods = stringList(metadata, "token_endpoint_auth_methods_supported");
    if (methods === undefined) {
      return fail(
        id,
        title,
        "token_endpoint_auth_methods_supported is not listed, which means client_secret_basic only (RFC 8414 section 2); " +
          "the dashboard authenticates with client_secret_post",
      );
    }
    if (!methods.includes(CLIENT_AUTH_METHOD)) {
      return fail(
        id,
        title,
        `token_endpoint_auth_methods_supported is ${quoteList(methods)}, without client_secret_post, which the dashboard uses`,
      );
    }
    return pass(id, title, "the token endpoint accepts client_secret_post");
  });
}

/** Check 6: the member scope `account:read`, which every Account API call needs. */
export function checkAccountReadScope(snapshot: SiteSnapshot): CheckResult {
  const id = "account-read-scope";
  const title = "Scope account:read";
  return withMetadata(snapshot, id, title, (metadata) => {
    const scopes = stringList(metadata, "scopes_supported");
    if (scopes === undefined) return warn(id, title, "scopes_supported is not listed, so account:read cannot be confirmed");
    if (!scopes.includes(REQUIRED_SCOPE))
      return fail(id, title, "scopes_supported lacks account:read, which the dashboard needs to read the Account API");
    return pass(id, title, "scopes_supported includes account:read");
  });
}

function describeKeySet(jwks: JsonDocument): { ok: true; count: number } | { ok: false; reason: string } {
  if (jwks.kind !== "json") return { ok: false, reason: `the key set at ${jwks.url}: ${jwks.reason}` };
  const keys = jwks.json.keys;
  if (!Array.isArray(keys)) return { ok: false, reason: `the key set at ${jwks.url} has no "keys" array` };
  const usable = keys.filter((key): key is JsonObject => {
    if (typeof key !== "object" || key === null) return false;
    const jwk = key as JsonObject;
    return (
      jwk.kty === "EC" &&
      jwk.crv === "P-256" &&
      typeof jwk.kid === "string" &&
      jwk.kid !== "" &&
      typeof jwk.x === "string" &&
      typeof jwk.y === "string" &&
      (jwk.use === undefined || jwk.use === "sig") &&
      (jwk.alg === undefined || jwk.alg === ID_TOKEN_ALGORITHM)
    );
  });
  if (usable.length === 0) {
    return { ok: false, reason: `the key set at ${jwks.url} has no EC P-256 signing key with a kid, so no id_token could be verified` };
  }
  return { ok: true, count: usable.length };
}

/**
 * Check 7: how the dashboard learns who signed in. Only when discovery lists both `jwks_uri` and
 * `id_token_signing_alg_values_supported` does it rely on an id_token, verified with ES256 and a key chosen
 * by `kid`; otherwise it uses UserInfo.
 * @see docs/architecture.md section 6.4, OpenID Connect Core section 3.1.3.7
 */
export function checkIdToken(snapshot: SiteSnapshot): CheckResult {
  const id = "id-token";
  const title = "id_token";
  return withMetadata(snapshot, id, title, (metadata) => {
    const jwksUri = stringValue(metadata, "jwks_uri");
    const algorithms = stringList(metadata, "id_token_signing_alg_values_supported");
    if (jwksUri === undefined && algorithms === undefined) {
      return pass(id, title, "UserInfo fallback (no id_token): discovery lists neither jwks_uri nor id_token_signing_alg_values_supported");
    }
    if (jwksUri === undefined || algorithms === undefined) {
      const listed = jwksUri === undefined ? "id_token_signing_alg_values_supported" : "jwks_uri";
      const absent = jwksUri === undefined ? "jwks_uri" : "id_token_signing_alg_values_supported";
      return warn(
        id,
        title,
        `UserInfo fallback: discovery lists ${listed} but not ${absent}, and both are needed before an id_token is relied on`,
      );
    }
    if (!algorithms.includes(ID_TOKEN_ALGORITHM)) {
      return fail(id, title, `id_tokens are signed with ${quoteList(algorithms)}; the dashboard accepts ES256 only`);
    }
    if (!snapshot.jwks) return fail(id, title, "the key set was not fetched");
    const keySet = describeKeySet(snapshot.jwks);
    if (!keySet.ok) return fail(id, title, keySet.reason);
    return pass(
      id,
      title,
      `id_tokens verified (ES256); the key set has ${keySet.count} EC P-256 key${keySet.count === 1 ? "" : "s"} with a kid`,
    );
  });
}

/** Check 7b: UserInfo, which the dashboard calls with or without id_tokens (the profile's claims). */
export function checkUserInfoEndpoint(snapshot: SiteSnapshot): CheckResult {
  const id = "userinfo-endpoint";
  const title = "UserInfo endpoint";
  return withMetadata(snapshot, id, title, (metadata) => {
    if (stringValue(metadata, "userinfo_endpoint") === undefined) {
      return fail(id, title, "discovery lists no userinfo_endpoint; the dashboard reads the member's profile there");
    }
    return pass(id, title, "userinfo_endpoint is listed");
  });
}

/**
 * Check 8: the `iss` parameter in authorization responses, which lets the dashboard detect mix-up attacks.
 * @see RFC 9207 section 3
 */
export function checkIssParameter(snapshot: SiteSnapshot): CheckResult {
  const id = "iss-parameter";
  const title = "Issuer in authorization responses";
  return withMetadata(snapshot, id, title, (metadata) => {
    if (metadata.authorization_response_iss_parameter_supported === true) {
      return pass(id, title, "authorization_response_iss_parameter_supported is true (RFC 9207)");
    }
    return warn(
      id,
      title,
      "authorization_response_iss_parameter_supported is not true, so the dashboard cannot detect mix-up attacks (RFC 9207)",
    );
  });
}

/**
 * Check 9: token revocation, behind the Settings page's "Revoke access".
 * @see RFC 7009
 */
export function checkRevocationEndpoint(snapshot: SiteSnapshot): CheckResult {
  const id = "revocation-endpoint";
  const title = "Revocation endpoint";
  return withMetadata(snapshot, id, title, (metadata) => {
    if (stringValue(metadata, "revocation_endpoint") === undefined) {
      return fail(id, title, 'discovery lists no revocation_endpoint; the Settings page\'s "Revoke access" needs it (RFC 7009)');
    }
    return pass(id, title, "revocation_endpoint is listed");
  });
}

/**
 * The endpoints that receive the client secret, codes or tokens, and the key set, on the site's own origin.
 * The dashboard refuses any other origin unless the operator lists it in SITE_ENDPOINT_ORIGINS.
 * @see RFC 9700 section 4.4, RFC 8414 section 7.3
 */
export function checkEndpointOrigins(snapshot: SiteSnapshot): CheckResult {
  const id = "endpoint-origins";
  const title = "Endpoints on the site's origin";
  return withMetadata(snapshot, id, title, (metadata) => {
    const site = new URL(snapshot.site).origin;
    const elsewhere = ["token_endpoint", "userinfo_endpoint", "revocation_endpoint", "jwks_uri"].flatMap((name) => {
      const value = stringValue(metadata, name);
      if (value === undefined) return [];
      const origin = URL.canParse(value) ? new URL(value).origin : value;
      return origin === site ? [] : [`${name} at ${quote(origin)}`];
    });
    if (elsewhere.length === 0) return pass(id, title, "token, UserInfo, revocation endpoints and jwks_uri are on the site's origin");
    return warn(
      id,
      title,
      `${elsewhere.join(", ")}: the dashboard refuses these unless SITE_ENDPOINT_ORIGINS lists the origin (check it really is the site's)`,
    );
  });
}

/**
 * Check 10: the protected-resource metadata names the site as the resource its tokens are bound to, and
 * the site's issuer as its authorization server.
 * @see RFC 9728 section 3.3, RFC 8707
 */
export function checkProtectedResourceMetadata(snapshot: SiteSnapshot): CheckResult {
  const id = "protected-resource-metadata";
  const title = "Protected resource metadata";
  const document = snapshot.protectedResource;
  if (document.kind !== "json") {
    return warn(
      id,
      title,
      `${document.url}: ${document.reason}; the dashboard does not need it, but MCP clients discover the site through it`,
    );
  }
  const resource = document.json.resource;
  if (resource !== snapshot.site) {
    return fail(
      id,
      title,
      `resource is ${resource === undefined ? "missing" : quote(resource)} but must be exactly ${snapshot.site}, ` +
        "the resource the dashboard binds its tokens to (RFC 8707)",
    );
  }
  const servers = stringList(document.json, "authorization_servers");
  if (!servers?.includes(snapshot.issuer)) {
    return fail(
      id,
      title,
      `authorization_servers ${servers === undefined ? "is missing" : `is ${quoteList(servers)}`} ` +
        `and does not include the issuer ${snapshot.issuer}`,
    );
  }
  return pass(id, title, `resource is ${snapshot.site} and its authorization server is the issuer`);
}

function describeAnswer(probe: Extract<HttpProbe, { kind: "response" }>): string {
  return probe.status >= 300 && probe.status < 400 && probe.location !== undefined
    ? `HTTP ${probe.status} (a redirect to ${quote(probe.location)})`
    : `HTTP ${probe.status}`;
}

/**
 * Check 11: the Account API exists and, having no anonymous mode, challenges a request without a token.
 * @see RFC 6750 section 3
 */
export function checkAccountApi(snapshot: SiteSnapshot): CheckResult {
  const id = "account-api";
  const title = "Account API";
  const probe = snapshot.accountApi;
  if (probe.kind === "unreachable") return fail(id, title, `${probe.url}: ${probe.reason}`);
  const challenge = /^bearer(\s|,|$)/i.test((probe.wwwAuthenticate ?? "").trim());
  if (probe.status === 401 && challenge) return pass(id, title, "an anonymous request gets 401 with a Bearer challenge");
  // The dashboard takes either refusal without a challenge as a refused token (lib/account-api/client.ts).
  const withoutChallenge =
    "the dashboard renews a token refused this way, but without a challenge's resource_metadata it cannot tell a token " +
    "meant for another resource (members would be asked to sign in again instead of the operator being told)";
  if (probe.status === 401) {
    return warn(
      id,
      title,
      `an anonymous request gets 401 but no WWW-Authenticate: Bearer challenge (RFC 6750 section 3); ${withoutChallenge}`,
    );
  }
  if (probe.status === 404) return fail(id, title, `${probe.url} answered HTTP 404: the site has no Account API there`);
  if (probe.status === 403) return warn(id, title, "an anonymous request gets HTTP 403 instead of 401 with a Bearer challenge");
  if (probe.status < 500 && probe.unauthenticatedError) {
    return warn(
      id,
      title,
      `an anonymous request gets HTTP ${probe.status} with a GraphQL error saying it is not signed in (UNAUTHENTICATED, ` +
        `or Hot Chocolate's AUTH_NOT_AUTHENTICATED) instead of 401 with a Bearer ` +
        `challenge (RFC 6750 section 3); ${withoutChallenge}`,
    );
  }
  if (probe.status >= 200 && probe.status < 300) {
    return fail(id, title, `an anonymous request gets HTTP ${probe.status}; the Account API must refuse requests without a token`);
  }
  return fail(id, title, `an anonymous request gets ${describeAnswer(probe)} instead of 401 with a Bearer challenge`);
}

/** Check 12: the MCP server, optional for the dashboard (the Connections panel says so). */
export function checkMcp(snapshot: SiteSnapshot): CheckResult {
  const id = "mcp";
  const title = "MCP server";
  const probe = snapshot.mcp;
  if (probe.kind === "problem") return warn(id, title, `${probe.url}: ${probe.reason}; MCP is optional for the dashboard`);
  const version = probe.serverVersion === "" ? "" : ` ${probe.serverVersion}`;
  return pass(
    id,
    title,
    `${quote(probe.serverName)}${version} answers anonymously with ${probe.toolCount} tool${probe.toolCount === 1 ? "" : "s"}`,
  );
}

function errorCodeIn(location: URL): string | undefined {
  const error = location.searchParams.get("error");
  if (error === null) return undefined;
  return /^[\w.-]{1,64}$/.test(error) ? error : "unknown_error";
}

/**
 * Check 13: the site knows the client and its redirect URI. A confidential client cannot be verified
 * without its secret; the authorization endpoint still tells whether it knows the client_id and the redirect
 * URI: it shows an error page (no redirect) when it does not.
 * @see RFC 6749 section 4.1.2.1
 */
export function checkClientRegistration(snapshot: SiteSnapshot): CheckResult | undefined {
  const probe = snapshot.authorization;
  if (!probe) return undefined;
  const id = "client-registration";
  const title = "Client and redirect URI";
  const answer = probe.answer;
  if (answer.kind === "unreachable") return fail(id, title, `the authorization endpoint ${answer.url}: ${answer.reason}`);
  if (answer.status === 200)
    return pass(id, title, `the site shows its sign-in page for client ${quote(probe.clientId)} and ${probe.redirectUri}`);
  if (answer.status >= 300 && answer.status < 400 && answer.location !== undefined) {
    const location = URL.canParse(answer.location, answer.url) ? new URL(answer.location, answer.url) : undefined;
    const redirect = new URL(probe.redirectUri);
    const backToClient = location !== undefined && location.origin === redirect.origin && location.pathname === redirect.pathname;
    const error = backToClient ? errorCodeIn(location) : undefined;
    if (error === "invalid_scope") {
      return fail(
        id,
        title,
        `the site knows client ${quote(probe.clientId)} but refuses the scopes ${quote(probe.scope)} (invalid_scope): ` +
          "it must be a member client allowed account:read",
      );
    }
    if (error !== undefined)
      return fail(id, title, `the site knows client ${quote(probe.clientId)} but refuses the sign-in request (${error})`);
    return pass(id, title, `the site accepts client ${quote(probe.clientId)} with ${probe.redirectUri} and redirects to sign in`);
  }
  if (answer.status >= 400 && answer.status < 500) {
    return fail(
      id,
      title,
      `the site does not know this client/redirect URI: client ${quote(probe.clientId)} with ${probe.redirectUri} ` +
        `gets an error page (HTTP ${answer.status})`,
    );
  }
  return fail(id, title, `the authorization endpoint answered ${describeAnswer(answer)}`);
}

/**
 * Check 14: how the token endpoint refuses a refresh. The dashboard ends the session as "access withdrawn"
 * on any 400 or 401, whatever the body; a refusal without RFC 6749 section 5.2's JSON error is worth knowing.
 */
export function checkRefreshRefusal(snapshot: SiteSnapshot): CheckResult | undefined {
  const probe = snapshot.refreshRefusal;
  if (!probe) return undefined;
  const id = "refresh-refusal";
  const title = "Refused refresh";
  if (probe.kind === "unreachable") return warn(id, title, `the token endpoint ${probe.url}: ${probe.reason}`);
  if ((probe.status === 400 || probe.status === 401) && probe.oauthErrorBody) {
    return pass(id, title, `an unknown refresh token gets HTTP ${probe.status} with a JSON error; the dashboard then signs the member out`);
  }
  if (probe.status === 400 || probe.status === 401) {
    return warn(
      id,
      title,
      `an unknown refresh token gets HTTP ${probe.status} without a JSON error (RFC 6749 section 5.2 asks for one); ` +
        "the dashboard still treats it as withdrawn access and signs the member out",
    );
  }
  if (probe.status === 200 && probe.oauthErrorBody) {
    return warn(
      id,
      title,
      "an unknown refresh token gets HTTP 200 with a JSON error (RFC 6749 section 5.2 asks for 400); the dashboard reads " +
        "the error it names, and signs the member out on invalid_grant",
    );
  }
  return warn(
    id,
    title,
    `an unknown refresh token gets HTTP ${probe.status}, not 400 or 401; the dashboard treats that as the site being unavailable, ` +
      "so a member whose access was withdrawn is not signed out",
  );
}

/**
 * Check 15: the scopes the dashboard needs. A member may grant less than asked (RFC 6749 section 3.3):
 * without openid or account:read the sign-in names what is missing; profile and email are optional.
 */
export function checkGrantedScopes(snapshot: SiteSnapshot): CheckResult {
  const id = "granted-scopes";
  const title = "Partial consent";
  return withMetadata(snapshot, id, title, (metadata) => {
    const scopes = stringList(metadata, "scopes_supported");
    if (scopes !== undefined && !scopes.includes("openid")) {
      return fail(id, title, "scopes_supported lacks openid, which the dashboard needs to learn who signed in (UserInfo)");
    }
    return pass(
      id,
      title,
      "the dashboard needs openid and account:read (a member who declines either is told which and offered to sign in again); " +
        "profile and email are optional",
    );
  });
}

/**
 * Check 16: Pushed Authorization Requests. When the site lists its PAR endpoint, the dashboard pushes every
 * authorization request there (the browser's address bar then holds only client_id and request_uri); a
 * site that requires PAR without listing the endpoint cannot be signed in to.
 * @see RFC 9126 sections 4 and 5
 */
export function checkPushedAuthorizationRequests(snapshot: SiteSnapshot): CheckResult {
  const id = "pushed-authorization-requests";
  const title = "Pushed authorization requests";
  return withMetadata(snapshot, id, title, (metadata) => {
    const endpoint = stringValue(metadata, "pushed_authorization_request_endpoint");
    const required = metadata.require_pushed_authorization_requests === true;
    if (endpoint === undefined && required) {
      return fail(
        id,
        title,
        "require_pushed_authorization_requests is true but no pushed_authorization_request_endpoint is listed (RFC 9126)",
      );
    }
    if (endpoint === undefined) return pass(id, title, "not offered: the dashboard sends its authorization requests through the browser");
    if (!URL.canParse(endpoint)) return fail(id, title, `pushed_authorization_request_endpoint ${quote(endpoint)} is not a URL`);
    return pass(
      id,
      title,
      `${required ? "required" : "offered"}: the dashboard pushes its authorization requests (RFC 9126), ` +
        "the browser gets only client_id and request_uri",
    );
  });
}

/**
 * Check 17: DPoP. With ES256 in `dpop_signing_alg_values_supported`, the dashboard (DPOP=auto) binds its
 * tokens to a key per member session; a site that lists other algorithms only gets Bearer tokens from it.
 * @see RFC 9449 section 5.1
 */
export function checkDpop(snapshot: SiteSnapshot): CheckResult {
  const id = "dpop";
  const title = "DPoP";
  return withMetadata(snapshot, id, title, (metadata) => {
    const algorithms = stringList(metadata, "dpop_signing_alg_values_supported");
    if (algorithms === undefined) {
      return pass(id, title, "not offered: Bearer tokens (with DPOP=required the dashboard refuses this site)");
    }
    if (!algorithms.includes("ES256")) {
      return warn(
        id,
        title,
        `dpop_signing_alg_values_supported is ${quoteList(algorithms)}, without ES256, the one the dashboard signs with: Bearer tokens`,
      );
    }
    return pass(id, title, "offered (ES256): the dashboard binds its tokens to a key per member session (RFC 9449)");
  });
}

/**
 * Check 18: the languages of the site's own sign-in, consent and sign-out pages. Where the metadata lists
 * them, the dashboard asks for the member's language there (`ui_locales`: lib/auth/login.ts,
 * lib/auth/end-session.ts); where it lists none, it asks nothing, and those pages speak the site's choice.
 * @see OpenID Connect Core 3.1.2.1, RFC 8414 section 2
 */
export function checkSignInLanguages(snapshot: SiteSnapshot): CheckResult {
  const id = "sign-in-languages";
  const title = "Languages of the site's sign-in pages";
  return withMetadata(snapshot, id, title, (metadata) => {
    const listed = metadata.ui_locales_supported;
    // Written null (a serializer that writes every field of its type) lists nothing either.
    if (listed === undefined || listed === null) {
      return pass(id, title, "not listed: the dashboard sends no ui_locales, and the site's sign-in pages speak the site's own choice");
    }
    if (!Array.isArray(listed)) {
      return warn(id, title, "ui_locales_supported is not a list of language tags (RFC 8414 section 2): the dashboard sends no ui_locales");
    }
    const tags = stringList(metadata, "ui_locales_supported") ?? [];
    // What lib/auth/login.ts sends a member reading each of the dashboard's languages.
    const sent = LOCALES.map((locale) => ({ locale, uiLocales: uiLocalesFor(locale, listed) }));
    const missing = sent.filter(({ uiLocales }) => !tags.includes(uiLocales.split(" ")[0] ?? "")).map(({ locale }) => locale);
    return pass(
      id,
      title,
      `${quoteList(tags)}: the dashboard asks for the member's language (ui_locales, OpenID Connect Core 3.1.2.1): ` +
        sent.map(({ locale, uiLocales }) => `${quote(uiLocales)} for ${locale}`).join(", ") +
        (missing.length === 0 ? "" : `; the site lists none for ${missing.join(" or ")}, where it chooses`),
    );
  });
}

/** Checks that judge the contents of the discovery metadata: left out when there is none to judge. */
const METADATA_CHECKS = [
  checkPkceS256,
  checkClientSecretPost,
  checkAccountReadScope,
  checkIdToken,
  checkUserInfoEndpoint,
  checkIssParameter,
  checkRevocationEndpoint,
  checkGrantedScopes,
  checkPushedAuthorizationRequests,
  checkDpop,
  checkSignInLanguages,
  checkEndpointOrigins,
] as const;

/**
 * Every check over the snapshot, in the order they are reported (check 1, the site URL, is judged before any
 * request). When the authorization-server metadata could not be read at all, the checks of its contents are
 * left out (check 2 says so) rather than failing one by one for the same reason.
 */
export function runChecks(snapshot: SiteSnapshot): CheckResult[] {
  const hasMetadata = mergeMetadata(snapshot.issuer, snapshot.authorizationServer, snapshot.openidConfiguration) !== undefined;
  const results = [
    checkAuthorizationServerMetadata(snapshot),
    checkOpenIdConfiguration(snapshot),
    ...(hasMetadata ? METADATA_CHECKS.map((check) => check(snapshot)) : []),
    checkProtectedResourceMetadata(snapshot),
    checkAccountApi(snapshot),
    checkMcp(snapshot),
    checkClientRegistration(snapshot),
    checkRefreshRefusal(snapshot),
  ];
  return results.filter((result): result is CheckResult => result !== undefined);
}
