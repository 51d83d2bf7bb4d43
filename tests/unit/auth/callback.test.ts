import { createSecretKey, generateKeyPairSync } from "node:crypto";

import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { handleCallback } from "@/lib/auth/callback";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { AuthError } from "@/lib/auth/errors";
import { signInProblemRedirect } from "@/lib/http/auth-redirects";
import { startLogin } from "@/lib/auth/login";
import { resetConfigForTests } from "@/lib/config";
import { loadSession } from "@/lib/session/session";

import { captureLog } from "../../support/captured-log";
import { configureDashboard, TEST_APP_URL, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "../../support/env";
import { setUpFakeSite, type Handler } from "../../support/fake-site";
import { cloneJar, memoryJar } from "../../support/memory-jar";
import { beginLogin, type SignInAttempt } from "../../support/sign-in-attempt";

const site = setUpFakeSite();

const DISCOVERY_PATHS = ["GET /.well-known/oauth-authorization-server", "GET /.well-known/openid-configuration"];

const member = { sub: "member-42", email: "maya@example.com", name: "Maya Chen", org_id: "school_1", roles: ["student"] };

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
  resetDiscoveryCacheForTests();
});
beforeEach(() => {
  site.handlers.set("GET /api/oauth/userinfo", () => ({ json: member }));
});
afterEach(() => {
  site.handlers.delete("POST /api/oauth/token");
});

function callbackUrl(params: Record<string, string>): URL {
  const url = new URL("/api/auth/callback", TEST_APP_URL);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url;
}

function validClaims(nonce: string) {
  const now = Math.floor(Date.now() / 1000);
  return { iss: site.url, aud: TEST_CLIENT_ID, iat: now, exp: now + 600, nonce, ...member };
}

/** `claims` without the named ones, as a site that leaves them out of its id_token. */
function withoutClaims(claims: Record<string, unknown>, ...names: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(claims).filter(([name]) => !names.includes(name)));
}

function tokenResponseWith(idToken: string | undefined, extra: Record<string, unknown> = {}) {
  site.handlers.set("POST /api/oauth/token", () => ({
    json: {
      access_token: "at-1",
      token_type: "Bearer",
      expires_in: 7200,
      refresh_token: "rt-1",
      scope: "openid profile email account:read",
      ...(idToken ? { id_token: idToken } : {}),
      ...extra,
    },
  }));
}

async function finish(attempt: SignInAttempt, params: Record<string, string> = {}) {
  return handleCallback(attempt.jar, callbackUrl({ code: "code-1", state: attempt.state, iss: site.url, ...params }));
}

async function expectFailure(promise: Promise<unknown>, code: string, detail?: string) {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AuthError);
  expect((error as AuthError).code).toBe(code);
  if (detail !== undefined) expect((error as AuthError).detail).toBe(detail);
}

describe("login", () => {
  it("sends PKCE S256, state, nonce and resource, and keeps them in a transaction cookie", async () => {
    const attempt = await beginLogin("/orders");
    const params = attempt.authorizationUrl.searchParams;
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(params.get("resource")).toBe(site.url);
    expect(params.get("redirect_uri")).toBe(`${TEST_APP_URL}/api/auth/callback`);
    expect(params.get("scope")).toBe("openid profile email account:read");
    expect(attempt.state).toMatch(/^[\w-]{43}$/);
    const names = [...attempt.jar.cookies.keys()];
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^dash_tx_/);
    expect(attempt.jar.cookies.get(names[0]!)).not.toContain(attempt.state);
  });

  it("asks for a code with a fresh 256-bit nonce, and puts no verifier, secret or plain challenge in the URL (checklist 4)", async () => {
    const first = await beginLogin();
    const second = await beginLogin();
    const params = first.authorizationUrl.searchParams;
    expect(params.get("response_type")).toBe("code");
    expect(params.get("client_id")).toBe(TEST_CLIENT_ID);
    expect(first.nonce).toMatch(/^[\w-]{43}$/);
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.state).not.toBe(first.state);
    expect(second.authorizationUrl.searchParams.get("code_challenge")).not.toBe(params.get("code_challenge"));
    for (const name of ["code_verifier", "client_secret"]) expect(params.has(name), name).toBe(false);
    expect(first.authorizationUrl.href).not.toContain(TEST_CLIENT_SECRET);
  });

  it("asks for the member's language as the site spells it in ui_locales_supported, and only of a site that lists some", async () => {
    const listed = (await (await fetch(`${site.url}/.well-known/oauth-authorization-server`)).json()) as object;
    const uiLocalesOf = async () => (await startLogin(memoryJar(), "/", { locale: "zh-TW" })).searchParams.get("ui_locales");
    expect(await uiLocalesOf()).toBeNull();
    site.handlers.set("GET /.well-known/oauth-authorization-server", () => ({
      json: { ...listed, ui_locales_supported: ["ja", "en-US", "zh-Hant-TW"] },
    }));
    resetDiscoveryCacheForTests();
    expect(await uiLocalesOf()).toBe("zh-Hant-TW en-US");
  });

  it("keeps two parallel sign-ins apart and caps abandoned ones", async () => {
    const jar = memoryJar();
    const urls = [];
    for (let i = 0; i < 5; i += 1) urls.push(await startLogin(jar, "/"));
    expect([...jar.cookies.keys()].filter((name) => name.startsWith("dash_tx_"))).toHaveLength(3);
    // The two newest tabs both finish.
    tokenResponseWith(await site.signIdToken(validClaims(urls[3]!.searchParams.get("nonce")!)));
    const tabA = cloneJar(jar);
    await handleCallback(tabA, callbackUrl({ code: "a", state: urls[3]!.searchParams.get("state")!, iss: site.url }));
    tokenResponseWith(await site.signIdToken(validClaims(urls[4]!.searchParams.get("nonce")!)));
    await handleCallback(jar, callbackUrl({ code: "b", state: urls[4]!.searchParams.get("state")!, iss: site.url }));
  });

  it("checklist 7: tabs finishing in reverse order each use their own attempt; a stale one fails and leaves the others", async () => {
    const jar = memoryJar();
    const urls = [];
    for (const returnTo of ["/", "/orders", "/events", "/courses"]) urls.push(await startLogin(jar, returnTo));
    const [evicted, stale, older, newer] = urls.map((url) => ({
      state: url.searchParams.get("state")!,
      nonce: url.searchParams.get("nonce")!,
    }));
    const callback = (tab: { state: string }, code: string) => callbackUrl({ code, state: tab.state, iss: site.url });
    // The tab whose attempt was dropped (three at most) fails before any token request.
    const tokenCalls = () => site.callsTo("/api/oauth/token").length;
    const before = tokenCalls();
    await expectFailure(handleCallback(jar, callback(evicted!, "w")), "login_expired");
    expect(tokenCalls()).toBe(before);
    // A tab's callback comes back with an id_token made for another tab's nonce: refused, the others untouched.
    tokenResponseWith(await site.signIdToken(validClaims(older!.nonce)));
    await expectFailure(handleCallback(jar, callback(stale!, "x")), "id_token_invalid", "nonce");
    // The newest tab finishes first, then the older one, each with its own verifier and return path.
    tokenResponseWith(await site.signIdToken(validClaims(newer!.nonce)));
    expect((await handleCallback(jar, callback(newer!, "y"))).returnTo).toBe("/courses");
    tokenResponseWith(await site.signIdToken(validClaims(older!.nonce)));
    // Its session replaces the newest tab's, which is revoked at the site (checklist 43).
    site.handlers.set("POST /api/oauth/revoke", () => ({ status: 200, text: "" }));
    expect((await handleCallback(jar, callback(older!, "z"))).returnTo).toBe("/events");
    const verifiers = site
      .callsTo("/api/oauth/token")
      .slice(-3)
      .map((call) => (call.body as URLSearchParams).get("code_verifier"));
    expect(new Set(verifiers).size).toBe(3);
  });
});

describe("callback", () => {
  it("exchanges the code with client_secret_post, verifier, redirect_uri and resource, then opens a session", async () => {
    const attempt = await beginLogin("/courses?page=2");
    tokenResponseWith(await site.signIdToken(validClaims(attempt.nonce)));
    const result = await finish(attempt);
    expect(result.returnTo).toBe("/courses?page=2");
    const exchange = site.callsTo("/api/oauth/token").at(-1)!.body as URLSearchParams;
    expect(exchange.get("grant_type")).toBe("authorization_code");
    expect(exchange.get("client_id")).toBe(TEST_CLIENT_ID);
    expect(exchange.get("client_secret")).toBe(TEST_CLIENT_SECRET);
    expect(exchange.get("code_verifier")).toMatch(/^[\w-]{43}$/);
    expect(exchange.get("redirect_uri")).toBe(`${TEST_APP_URL}/api/auth/callback`);
    expect(exchange.get("resource")).toBe(site.url);
    const loaded = await loadSession(attempt.jar);
    expect(loaded?.data.claims).toEqual({
      sub: member.sub,
      email: member.email,
      name: member.name,
      orgId: member.org_id,
      roles: member.roles,
    });
    expect(loaded?.data.scopes).toContain("account:read");
    expect([...attempt.jar.cookies.keys()].some((name) => name.startsWith("dash_tx_"))).toBe(false);
  });

  it("rejects a response without the RFC 9207 iss parameter", async () => {
    const attempt = await beginLogin();
    await expectFailure(handleCallback(attempt.jar, callbackUrl({ code: "c", state: attempt.state })), "issuer_mismatch");
  });

  it("rejects a response whose iss is another issuer", async () => {
    const attempt = await beginLogin();
    await expectFailure(finish(attempt, { iss: "http://127.0.0.1:1" }), "issuer_mismatch");
  });

  it("rejects a state this browser did not start", async () => {
    const attempt = await beginLogin();
    await expectFailure(finish(attempt, { state: "x".repeat(43) }), "login_expired");
  });

  it("rejects a transaction cookie that holds another state behind the same prefix", async () => {
    const attempt = await beginLogin();
    const forged = `${attempt.state.slice(0, 16)}${"A".repeat(27)}`;
    await expectFailure(finish(attempt, { state: forged }), "login_expired");
  });

  it("rejects a replayed callback", async () => {
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken(validClaims(attempt.nonce)));
    const replay = cloneJar(attempt.jar);
    await finish(attempt);
    await expectFailure(finish({ ...attempt, jar: replay }), "callback_replayed");
  });

  it("shows the site's error response as a denial without a session", async () => {
    const attempt = await beginLogin();
    await expectFailure(
      finish(attempt, { error: "access_denied", error_description: "<script>alert(1)</script>" }),
      "authorization_denied",
      "access_denied",
    );
    expect(await loadSession(attempt.jar)).toBeNull();
  });

  it("does not echo an unknown error code from the site", async () => {
    const attempt = await beginLogin();
    await expectFailure(finish(attempt, { error: "<img src=x>" }), "authorization_failed", "unknown");
  });
});

describe("id_token validation", () => {
  async function withIdToken(build: (nonce: string) => Promise<string>, detail?: string) {
    const attempt = await beginLogin();
    tokenResponseWith(await build(attempt.nonce));
    await expectFailure(finish(attempt), "id_token_invalid", detail);
    expect(await loadSession(attempt.jar)).toBeNull();
  }

  it("rejects a wrong iss", () => withIdToken((nonce) => site.signIdToken({ ...validClaims(nonce), iss: "https://evil.example" }), "iss"));
  it("rejects a wrong aud", () => withIdToken((nonce) => site.signIdToken({ ...validClaims(nonce), aud: "another-client" }), "aud"));
  it("rejects an extra audience", () =>
    withIdToken(
      (nonce) => site.signIdToken({ ...validClaims(nonce), aud: [TEST_CLIENT_ID, "another-client"], azp: TEST_CLIENT_ID }),
      "aud",
    ));
  it("rejects a wrong nonce", () => withIdToken((nonce) => site.signIdToken({ ...validClaims(nonce), nonce: "other" }), "nonce"));
  it("rejects a missing nonce", () =>
    withIdToken((nonce) => {
      const claims: Record<string, unknown> = validClaims(nonce);
      delete claims.nonce;
      return site.signIdToken(claims);
    }, "nonce"));
  it("rejects an expired id_token", () =>
    withIdToken(
      (nonce) =>
        site.signIdToken({ ...validClaims(nonce), iat: Math.floor(Date.now() / 1000) - 1200, exp: Math.floor(Date.now() / 1000) - 600 }),
      "exp",
    ));
  it("rejects an iat in the future", () =>
    withIdToken(
      (nonce) =>
        site.signIdToken({ ...validClaims(nonce), iat: Math.floor(Date.now() / 1000) + 3600, exp: Math.floor(Date.now() / 1000) + 4200 }),
      "iat",
    ));
  it("rejects alg none", () =>
    withIdToken((nonce) => {
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
      return Promise.resolve(`${encode({ alg: "none", typ: "JWT" })}.${encode(validClaims(nonce))}.`);
    }, "alg"));
  it("rejects a broken signature", () =>
    withIdToken(async (nonce) => {
      const token = await site.signIdToken(validClaims(nonce));
      const [header, payload, signature] = token.split(".");
      const flipped = signature!.startsWith("A") ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
      return `${header}.${payload}.${flipped}`;
    }, "signature"));
  it("rejects HS256 signed with the client secret", () =>
    withIdToken(
      (nonce) =>
        site.signIdToken(validClaims(nonce), {
          alg: "HS256",
          key: createSecretKey(Buffer.from(TEST_CLIENT_SECRET)) as unknown as Uint8Array,
        }),
      "alg",
    ));
  it("rejects RS256", () =>
    withIdToken((nonce) => {
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      return site.signIdToken(validClaims(nonce), { alg: "RS256", key: privateKey as unknown as CryptoKey });
    }, "alg"));
  it("rejects an unknown kid, re-fetching the key set at most once", async () => {
    const before = site.callsTo("/jwks").length;
    await withIdToken((nonce) => site.signIdToken(validClaims(nonce), { kid: "unknown-kid" }), "kid");
    await withIdToken((nonce) => site.signIdToken(validClaims(nonce), { kid: "another-unknown-kid" }), "kid");
    expect(site.callsTo("/jwks").length - before).toBeLessThanOrEqual(1);
  });
  it("rejects an id_token whose sub is empty", () => withIdToken((nonce) => site.signIdToken({ ...validClaims(nonce), sub: "" }), "sub"));
  it("rejects an id_token without sub", () =>
    withIdToken((nonce) => {
      const claims: Record<string, unknown> = validClaims(nonce);
      delete claims.sub;
      return site.signIdToken(claims);
    }, "sub"));
  it("requires an id_token when discovery lists jwks_uri and the alg list", async () => {
    const attempt = await beginLogin();
    tokenResponseWith(undefined);
    await expectFailure(finish(attempt), "id_token_invalid", "missing");
  });
});

describe("UserInfo comparison", () => {
  for (const [claim, value] of [
    ["sub", "someone-else"],
    ["email", "other@example.com"],
    ["name", "Someone Else"],
    ["org_id", "school_2"],
    ["roles", ["admin", "student"]],
  ] as const) {
    it(`rejects a UserInfo ${claim} that differs from the id_token`, async () => {
      site.handlers.set("GET /api/oauth/userinfo", () => ({ json: { ...member, [claim]: value } }));
      const attempt = await beginLogin();
      tokenResponseWith(await site.signIdToken(validClaims(attempt.nonce)));
      await expectFailure(finish(attempt), "userinfo_mismatch", claim);
      expect(await loadSession(attempt.jar)).toBeNull();
    });
  }

  it("an id_token naming the member by sub alone (OpenID Connect Core 5.4): the other claims are UserInfo's", async () => {
    site.handlers.set("GET /api/oauth/userinfo", () => ({ json: member }));
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken(withoutClaims(validClaims(attempt.nonce), "email", "name", "org_id", "roles")));
    await finish(attempt);
    expect((await loadSession(attempt.jar))?.data.claims).toEqual({
      sub: member.sub,
      email: member.email,
      name: member.name,
      orgId: member.org_id,
      roles: member.roles,
    });
  });

  it.each([
    ["email", "other@example.com"],
    ["org_id", "school_2"],
  ])("a claim the id_token carries still has to agree when it leaves others out: %s", async (claim, value) => {
    site.handlers.set("GET /api/oauth/userinfo", () => ({ json: member }));
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken({ ...withoutClaims(validClaims(attempt.nonce), "name", "roles"), [claim]: value }));
    await expectFailure(finish(attempt), "userinfo_mismatch", claim);
  });

  it("takes the same roles in another order, or one named twice: roles are a set", async () => {
    const roles = ["owner", "admin", "student"];
    for (const [inIdToken, inUserInfo] of [
      [roles, roles.toReversed()],
      [roles, [...roles, "admin"]],
    ]) {
      site.handlers.set("GET /api/oauth/userinfo", () => ({ json: { ...member, roles: inUserInfo } }));
      const attempt = await beginLogin();
      tokenResponseWith(await site.signIdToken({ ...validClaims(attempt.nonce), roles: inIdToken }));
      await finish(attempt);
      expect((await loadSession(attempt.jar))?.data.claims.roles).toEqual(inUserInfo);
    }
  });

  it.each([
    ["one role fewer in the id_token", ["owner", "student"]],
    ["a role in the id_token that is not a string", ["owner", "admin", "student", 7]],
  ])("rejects roles that differ as a set: %s", async (_name, inIdToken) => {
    site.handlers.set("GET /api/oauth/userinfo", () => ({ json: { ...member, roles: ["owner", "admin", "student"] } }));
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken({ ...validClaims(attempt.nonce), roles: inIdToken }));
    await expectFailure(finish(attempt), "userinfo_mismatch", "roles");
  });

  it("checklist 39: the refusal is logged as a security event naming the claim, never either value", async () => {
    const log = captureLog();
    site.handlers.set("GET /api/oauth/userinfo", () => ({ json: { ...member, email: "other@example.com" } }));
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken(validClaims(attempt.nonce)));
    const error = await finish(attempt).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    // What the callback route answers with the error (app/api/auth/callback/route.ts).
    const location = new URL(signInProblemRedirect(error).headers.get("location")!);
    expect(location.searchParams.get("code")).toBe("userinfo_mismatch");
    expect(log.events()).toContainEqual(
      expect.objectContaining({ event: "sign_in_failed", level: "warn", errorCode: "userinfo_mismatch", detail: "email" }),
    );
    expect(log.text()).not.toContain("other@example.com");
    expect(log.text()).not.toContain(member.email);
  });
});

describe("a UserInfo endpoint that does not answer with UserInfo", () => {
  // The site is not answering properly: the member is told to try again later, not that their account
  // details failed a check (userinfo_mismatch), and no session opens either way.
  it.each<[string, ReturnType<Handler>, string]>([
    ["a 503", { status: 503, json: { error: "temporarily_unavailable" } }, "503"],
    ["a 500 without a body", { status: 500, text: "" }, "500"],
    ["a redirect", { status: 302, headers: { location: "https://elsewhere.example/userinfo" } }, "302"],
    ["an HTML page", { text: "<html>Maintenance</html>", headers: { "content-type": "text/html" } }, "not_json"],
  ])("%s: site_unavailable, without a session", async (_name, answer, detail) => {
    site.handlers.set("GET /api/oauth/userinfo", () => answer);
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken(validClaims(attempt.nonce)));
    await expectFailure(finish(attempt), "site_unavailable", detail);
    expect(await loadSession(attempt.jar)).toBeNull();
  });

  it("JSON that names no member is still refused as userinfo_mismatch", async () => {
    site.handlers.set("GET /api/oauth/userinfo", () => ({ json: { email: member.email } }));
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken(validClaims(attempt.nonce)));
    await expectFailure(finish(attempt), "userinfo_mismatch", "missing_claims");
    expect(await loadSession(attempt.jar)).toBeNull();
  });
});

describe("token endpoint failures", () => {
  const cases: [string, () => { status?: number; json?: unknown; text?: string; headers?: Record<string, string> }, string][] = [
    ["a 5xx", () => ({ status: 503, json: { error: "temporarily_unavailable" } }), "site_unavailable"],
    ["a non-JSON body", () => ({ status: 200, text: "<html>oops</html>", headers: { "content-type": "text/html" } }), "site_unavailable"],
    // Labelled JSON but broken: oauth4webapi calls it a parse error, as it would a broken id_token; it is neither a token nor one refused.
    [
      "a broken body labelled JSON",
      () => ({ status: 200, text: '<html>Service unavailable{"truncated":', headers: { "content-type": "application/json" } }),
      "site_unavailable",
    ],
    ["no access_token", () => ({ status: 200, json: { token_type: "Bearer", expires_in: 3600 } }), "site_unavailable"],
    ["a redirect", () => ({ status: 302, headers: { location: "https://evil.example/token" } }), "site_unavailable"],
    ["invalid_grant", () => ({ status: 400, json: { error: "invalid_grant", error_description: "code used" } }), "token_exchange_failed"],
    // GitHub's OAuth apps answer a refused code with 200 and the error body: still a refusal, not a failing site.
    [
      "invalid_grant with 200",
      () => ({ status: 200, json: { error: "invalid_grant", error_description: "code used" } }),
      "token_exchange_failed",
    ],
    ["server_error with 200", () => ({ status: 200, json: { error: "server_error" } }), "site_unavailable"],
    // A busy site refuses nothing: the member is told to try again in a while, not that the site refused.
    [
      "a 429 with an OAuth error body",
      () => ({ status: 429, json: { error: "invalid_request", error_description: "slow down" } }),
      "site_unavailable",
    ],
    ["a 4xx naming temporarily_unavailable", () => ({ status: 403, json: { error: "temporarily_unavailable" } }), "site_unavailable"],
  ];
  for (const [name, answer, code] of cases) {
    it(`turns ${name} into ${code} without a session`, async () => {
      site.handlers.set("POST /api/oauth/token", answer);
      const attempt = await beginLogin();
      const tokenRequests = site.callsTo("/api/oauth/token").length;
      await expectFailure(finish(attempt), code);
      expect(await loadSession(attempt.jar)).toBeNull();
      // RFC 6749 section 4.1.2: the code is sent once; a refused or failed exchange is never retried with it.
      expect(site.callsTo("/api/oauth/token").length - tokenRequests).toBe(1);
    });
  }
});

describe("token checks oauth4webapi leaves to us", () => {
  it("rejects an azp that is not our client_id (OpenID Connect Core 3.1.3.7)", () =>
    (async () => {
      const attempt = await beginLogin();
      tokenResponseWith(await site.signIdToken({ ...validClaims(attempt.nonce), azp: "another-client" }));
      await expectFailure(finish(attempt), "id_token_invalid", "azp");
      expect(await loadSession(attempt.jar)).toBeNull();
    })());

  it("accepts an audience given as an array holding our client_id alone (OpenID Connect Core 2)", async () => {
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken({ ...validClaims(attempt.nonce), aud: [TEST_CLIENT_ID] }));
    await finish(attempt);
    expect(await loadSession(attempt.jar)).not.toBeNull();
  });

  it("accepts an azp equal to our client_id", async () => {
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken({ ...validClaims(attempt.nonce), azp: TEST_CLIENT_ID }));
    await finish(attempt);
    expect(await loadSession(attempt.jar)).not.toBeNull();
  });

  it.each(["DPoP", "mac", "N_A"])("refuses a token_type of %s", async (tokenType) => {
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken(validClaims(attempt.nonce)), { token_type: tokenType });
    await expectFailure(finish(attempt), "token_exchange_failed", "token_type");
    expect(await loadSession(attempt.jar)).toBeNull();
  });

  it.each(["bearer", "bEARER", "BEARER"])("accepts the token_type %s in any case", async (tokenType) => {
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken(validClaims(attempt.nonce)), { token_type: tokenType });
    await finish(attempt);
    expect(await loadSession(attempt.jar)).not.toBeNull();
  });

  it("refuses a UserInfo answer of application/jwt instead of reading it unsigned", async () => {
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken(validClaims(attempt.nonce)));
    // Signed with the wrong (unrelated) key: read without verification, its claims would still match.
    const forged = await site.signIdToken(
      { ...member, iss: site.url, aud: TEST_CLIENT_ID },
      { key: (await generateKeyPair("ES256")).privateKey },
    );
    site.handlers.set("GET /api/oauth/userinfo", () => ({ text: forged, headers: { "content-type": "application/jwt" } }));
    await expectFailure(finish(attempt), "userinfo_mismatch", "signed_userinfo");
    expect(await loadSession(attempt.jar)).toBeNull();
  });
});

describe("callback and id_token cases of the security checklist", () => {
  it.each([`${"x"}/`, "HTTP://X"])("rejects an iss that differs only by a trailing slash or letter case (%s)", async (variant) => {
    const attempt = await beginLogin();
    const iss = variant === "x/" ? `${site.url}/` : site.url.toUpperCase();
    const before = site.callsTo("/api/oauth/token").length;
    await expectFailure(finish(attempt, { iss }), "issuer_mismatch");
    expect(site.callsTo("/api/oauth/token")).toHaveLength(before);
  });

  it.each(["state", "code", "iss"])("rejects a callback that repeats %s, before any token request", async (name) => {
    const attempt = await beginLogin();
    const before = site.callsTo("/api/oauth/token").length;
    const url = callbackUrl({ code: "code-1", state: attempt.state, iss: site.url });
    url.searchParams.append(name, url.searchParams.get(name)!);
    await expectFailure(handleCallback(attempt.jar, url), "login_state_mismatch");
    expect(site.callsTo("/api/oauth/token")).toHaveLength(before);
  });

  it("rejects a transaction older than its lifetime", async () => {
    const attempt = await beginLogin();
    const realNow = Date.now;
    // Ten and a half minutes: past the transaction's ten, while its cookie's seal still opens (iron's 60 s of
    // clock skew past the seal's own ten), so the transaction's own age check is what refuses it.
    Date.now = () => realNow() + 10.5 * 60 * 1000;
    try {
      await expectFailure(finish(attempt), "login_expired");
    } finally {
      Date.now = realNow;
    }
  });

  it("rejects an id_token with an unknown crit header, and ignores a key embedded in the header", async () => {
    const attempt = await beginLogin();
    // jose refuses to sign an unknown crit, so the token is signed by hand with the site's real key.
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const input = `${encode({ alg: "ES256", kid: site.kid, crit: ["x-unknown"], "x-unknown": 1 })}.${encode(validClaims(attempt.nonce))}`;
    const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, site.privateKey, new TextEncoder().encode(input));
    tokenResponseWith(`${input}.${Buffer.from(signature).toString("base64url")}`);
    await expectFailure(finish(attempt), "id_token_invalid");

    const again = await beginLogin();
    const attacker = await generateKeyPair("ES256", { extractable: true });
    const embedded = await new SignJWT(validClaims(again.nonce))
      .setProtectedHeader({ alg: "ES256", kid: site.kid, jwk: await exportJWK(attacker.publicKey), jku: "https://evil.example/jwks" })
      .sign(attacker.privateKey);
    tokenResponseWith(embedded);
    await expectFailure(finish(again), "id_token_invalid", "signature");
  });

  it.each([
    ["two segments", (token: string) => token.split(".").slice(0, 2).join(".")],
    ["four segments", (token: string) => `${token}.x`],
    ["bad base64url", (token: string) => `${token.split(".")[0]}.%%%.${token.split(".")[2]}`],
  ])("rejects a malformed id_token (%s) as a sign-in error, not a crash", async (_name, mangle) => {
    const attempt = await beginLogin();
    tokenResponseWith(mangle(await site.signIdToken(validClaims(attempt.nonce))));
    await expectFailure(finish(attempt), "id_token_invalid");
  });
});

describe("the site's keys and accounts (security checklist)", () => {
  let keySetsServed = 0;
  let discoveryHandlers: [string, Handler][] = [];
  const noCall = { method: "GET", path: "", body: "", headers: {} };

  beforeEach(() => {
    discoveryHandlers = DISCOVERY_PATHS.map((key) => [key, site.handlers.get(key)!]);
  });
  afterEach(() => {
    for (const [key, handler] of discoveryHandlers) site.handlers.set(key, handler);
    resetDiscoveryCacheForTests();
  });

  /** The site's own public key as its JWKS lists it. */
  function siteJwk(): JWK {
    return (site.handlers.get("GET /jwks")!(noCall).json as { keys: JWK[] }).keys[0]!;
  }

  /** Discovery names a key set of its own (jose keeps one per jwks_uri), serving `keys`. */
  function serveKeySet(keys: JWK[]): void {
    keySetsServed += 1;
    const jwksPath = `/jwks-checklist-${keySetsServed}`;
    site.handlers.set(`GET ${jwksPath}`, () => ({ json: { keys } }));
    for (const [key, handler] of discoveryHandlers) {
      const metadata = handler(noCall).json as Record<string, unknown>;
      site.handlers.set(key, () => ({ json: { ...metadata, jwks_uri: `${site.url}${jwksPath}` } }));
    }
    resetDiscoveryCacheForTests();
  }

  it("checklist 13: where the metadata does not promise iss, a wrong one is refused, a missing one taken (RFC 9207 2.4)", async () => {
    for (const [key, handler] of discoveryHandlers) {
      const metadata = handler(noCall).json as Record<string, unknown>;
      site.handlers.set(key, () => ({ json: { ...metadata, authorization_response_iss_parameter_supported: false } }));
    }
    resetDiscoveryCacheForTests();
    const wrong = await beginLogin();
    await expectFailure(finish(wrong, { iss: "http://127.0.0.1:1" }), "issuer_mismatch");
    const missing = await beginLogin();
    tokenResponseWith(await site.signIdToken(validClaims(missing.nonce)));
    await handleCallback(missing.jar, callbackUrl({ code: "code-1", state: missing.state }));
    expect(await loadSession(missing.jar)).not.toBeNull();
  });

  it("checklist 34: rejects an id_token without kid while the key set holds several keys", async () => {
    const second = await generateKeyPair("ES256", { extractable: true });
    serveKeySet([siteJwk(), { ...(await exportJWK(second.publicKey)), kid: "second-key", alg: "ES256", use: "sig" }]);
    const attempt = await beginLogin();
    tokenResponseWith(await new SignJWT(validClaims(attempt.nonce)).setProtectedHeader({ alg: "ES256", typ: "JWT" }).sign(site.privateKey));
    await expectFailure(finish(attempt), "id_token_invalid", "kid");
    expect(await loadSession(attempt.jar)).toBeNull();

    // The same key set and signing key, with the kid named: accepted.
    const named = await beginLogin();
    tokenResponseWith(await site.signIdToken(validClaims(named.nonce)));
    await expect(finish(named)).resolves.toMatchObject({ session: { claims: { sub: member.sub } } });
  });

  it.each<[string, () => Promise<JWK>]>([
    ["kty RSA", async () => ({ ...(await exportJWK(generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey)), alg: "RS256" })],
    ["crv P-384", async () => exportJWK((await generateKeyPair("ES384", { extractable: true })).publicKey)],
    ["use enc", () => Promise.resolve({ ...siteJwk(), use: "enc" })],
    ["key_ops without verify", () => Promise.resolve({ ...siteJwk(), use: undefined, key_ops: ["encrypt"] })],
  ])("checklist 36: a JWKS entry for the kid with %s is not used, and the id_token is rejected", async (_name, entry) => {
    serveKeySet([{ ...(await entry()), kid: site.kid }]);
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken(validClaims(attempt.nonce)));
    await expectFailure(finish(attempt), "id_token_invalid", "kid");
    expect(await loadSession(attempt.jar)).toBeNull();
  });

  it("checklist 41: another account with the same email but another sub is another member; nothing is merged by email", async () => {
    const first = await beginLogin();
    site.handlers.set("GET /api/oauth/userinfo", () => ({ json: { ...member, roles: ["admin"] } }));
    tokenResponseWith(await site.signIdToken({ ...validClaims(first.nonce), roles: ["admin"] }));
    const { session: firstSession } = await finish(first);
    expect(firstSession.claims).toMatchObject({ sub: member.sub, orgId: "school_1", roles: ["admin"] });

    // The same browser signs in with a second account of the site that has the same email.
    const other = { sub: "member-77", email: member.email, name: "Maya C." };
    site.handlers.set("GET /api/oauth/userinfo", () => ({ json: other }));
    const authorizationUrl = await startLogin(first.jar, "/courses");
    const nonce = authorizationUrl.searchParams.get("nonce")!;
    const second: SignInAttempt = { jar: first.jar, authorizationUrl, state: authorizationUrl.searchParams.get("state")!, nonce };
    tokenResponseWith(await site.signIdToken({ ...validClaims(nonce), ...other, org_id: undefined, roles: undefined }));
    // The first member's session, which the new sign-in replaces, is revoked at the site, both its tokens (checklist 43).
    site.handlers.set("POST /api/oauth/revoke", () => ({ status: 200, text: "" }));
    const { session } = await finish(second);
    expect(site.callsTo("/api/oauth/revoke")).toHaveLength(2);

    const expected = { sub: "member-77", email: member.email, name: "Maya C.", orgId: "", roles: [] };
    expect(session.claims).toEqual(expected);
    expect(session.sid).not.toBe(firstSession.sid);
    expect((await loadSession(first.jar))?.data.claims).toEqual(expected);
  });
});

describe("checklist 49, sign-in side", () => {
  it("keeps the sign-in id_token's nonce in the session, for the refreshed id_tokens to be compared with", async () => {
    const attempt = await beginLogin();
    tokenResponseWith(await site.signIdToken(validClaims(attempt.nonce)));
    await finish(attempt);
    expect((await loadSession(attempt.jar))?.data.idTokenNonce).toBe(attempt.nonce);
    // Opened afresh from the cookie, as another instance would (past the memory of opened seals).
    const realNow = Date.now;
    Date.now = () => realNow() + 6 * 60 * 1000;
    try {
      expect((await loadSession(attempt.jar))?.data.idTokenNonce).toBe(attempt.nonce);
    } finally {
      Date.now = realNow;
    }
  });
});

describe("the sign-in problem page's address", () => {
  it("carries a panel sign-in's binding only in the binding's own form: nothing else from the attempt reaches the URL", () => {
    const binding = "b".repeat(43);
    const failed = (binding: string) => Object.assign(new AuthError("login_expired", "expired"), { popup: { binding, locale: null } });
    const bindingOf = (error: AuthError) => new URL(signInProblemRedirect(error).headers.get("location")!).searchParams.get("binding");
    expect(bindingOf(failed(binding))).toBe(binding);
    for (const junk of ['"><script>alert(1)</script>', "b".repeat(44), "short"]) expect(bindingOf(failed(junk))).toBeNull();
  });

  it("carries the panel's language with its binding, only one the dashboard speaks, and never without a binding", () => {
    const failed = (binding: string | undefined, locale: string) =>
      Object.assign(new AuthError("login_expired", "expired"), { popup: binding === undefined ? undefined : { binding, locale } });
    const langOf = (error: AuthError) => new URL(signInProblemRedirect(error).headers.get("location")!).searchParams.get("lang");
    expect(langOf(failed("b".repeat(43), "zh-TW"))).toBe("zh-TW");
    expect(langOf(failed("b".repeat(43), '"><script>'))).toBeNull();
    expect(langOf(failed(undefined, "zh-TW"))).toBeNull();
  });
});
