/**
 * Security checklist cases 3, 8, 16, 20, 21, 28, 29, 40 and 52, each against the fake site with real
 * ES256 keys: the check, and that no session comes out of a failure.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { handleCallback } from "@/lib/auth/callback";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { AuthError } from "@/lib/auth/errors";
import { startLogin } from "@/lib/auth/login";
import { DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS } from "@/lib/auth/token-times";
import { ensureFreshTokens } from "@/lib/auth/tokens";
import { resetConfigForTests } from "@/lib/config";
import { loadSession, sessionCookieName } from "@/lib/session/session";
import { takeTransaction } from "@/lib/auth/transaction";

import { configureDashboard, TEST_APP_URL, TEST_CLIENT_ID } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";
import { memoryJar } from "../../support/memory-jar";
import { beginLogin, type SignInAttempt } from "../../support/sign-in-attempt";
import { expiringSession } from "../../support/session-fixture";

const site = setUpFakeSite();
const member = { sub: "member-42", email: "maya@example.com", name: "Maya Chen", org_id: "school_1", roles: ["student"] };

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
});
beforeEach(() => {
  resetDiscoveryCacheForTests();
  site.handlers.set("GET /api/oauth/userinfo", () => ({ json: member }));
  site.handlers.set("POST /api/oauth/revoke", () => ({ status: 200, text: "" }));
});
afterEach(() => {
  site.handlers.delete("POST /api/oauth/token");
});

function finish(attempt: SignInAttempt, params: Record<string, string | undefined> = {}) {
  const url = new URL("/api/auth/callback", TEST_APP_URL);
  for (const [key, value] of Object.entries({ code: "code-1", state: attempt.state, iss: site.url, ...params })) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  return handleCallback(attempt.jar, url);
}

function claims(nonce: string, overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return { iss: site.url, aud: TEST_CLIENT_ID, iat: now, exp: now + 600, nonce, ...member, ...overrides };
}

function tokenAnswer(extra: Record<string, unknown> = {}, idToken?: string) {
  site.handlers.set("POST /api/oauth/token", () => ({
    json: {
      access_token: "at-1",
      token_type: "Bearer",
      expires_in: 7200,
      refresh_token: "rt-1",
      ...(idToken ? { id_token: idToken } : {}),
      ...extra,
    },
  }));
}

async function failure(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}

async function expectNoSession(attempt: SignInAttempt, promise: Promise<unknown>, code: string): Promise<AuthError> {
  const error = await failure(promise);
  expect(error.code).toBe(code);
  expect(await loadSession(attempt.jar)).toBeNull();
  return error;
}

describe("checklist 28 and 29: exp and iat are required, iat not too old, nbf not in the future", () => {
  // The refusal is our own verification's (lib/auth/id-token.ts), naming the claim: oauth4webapi, which
  // reads the same answer afterwards, would refuse some of these too, but only as "protocol".
  it.each<[string, (nonce: string) => Record<string, unknown>, string]>([
    ["a missing exp", (nonce) => ({ ...claims(nonce), exp: undefined }), "exp"],
    ["a missing iat", (nonce) => ({ ...claims(nonce), iat: undefined }), "iat"],
    ["an iat 13 minutes old", (nonce) => claims(nonce, { iat: Math.floor(Date.now() / 1000) - 13 * 60 }), "iat"],
    ["an nbf 5 minutes ahead", (nonce) => claims(nonce, { nbf: Math.floor(Date.now() / 1000) + 300 }), "nbf"],
  ])("checklist 28/29: refuses an id_token with %s", async (_name, build, claim) => {
    const attempt = await beginLogin("/");
    tokenAnswer({}, await site.signIdToken(build(attempt.nonce)));
    const error = await expectNoSession(attempt, finish(attempt), "id_token_invalid");
    expect(error.detail).toBe(claim);
  });
});

describe("checklist 20: a token response without expires_in", () => {
  it("checklist 20: is accepted and the access token is given the default lifetime", async () => {
    const attempt = await beginLogin("/");
    tokenAnswer({ expires_in: undefined }, await site.signIdToken(claims(attempt.nonce)));
    const { session } = await finish(attempt);
    expect(session.accessTokenExpiresAt - Date.now()).toBeGreaterThan((DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS - 5) * 1000);
    expect(session.accessTokenExpiresAt - Date.now()).toBeLessThanOrEqual(DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS * 1000);
  });
});

describe("checklist 21: the token endpoint redirects", () => {
  it("checklist 21: a 307 to an endpoint that would succeed is not followed: the code and secret go nowhere else", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({ status: 307, headers: { location: `${site.url}/elsewhere/token` } }));
    // No handler there: a followed redirect would be recorded (and fail the test as an unexpected call).
    const attempt = await beginLogin("/");
    await expectNoSession(attempt, finish(attempt), "site_unavailable");
    expect(site.callsTo("/elsewhere/token")).toHaveLength(0);
  });
});

describe("checklist 40: UserInfo answering HTML or 401", () => {
  it.each<[string, { status?: number; text?: string; headers?: Record<string, string>; json?: unknown }, string]>([
    // Not UserInfo at all: the site is not answering properly.
    ["HTML", { status: 200, text: "<html><body>Sign in</body></html>", headers: { "content-type": "text/html" } }, "site_unavailable"],
    // The site refused the token it has just issued.
    [
      "401 invalid_token",
      { status: 401, json: { error: "invalid_token" }, headers: { "www-authenticate": 'Bearer error="invalid_token"' } },
      "userinfo_mismatch",
    ],
  ])("checklist 40: refuses a UserInfo answer of %s; the token went in the Authorization header only", async (_name, answer, code) => {
    site.handlers.set("GET /api/oauth/userinfo", () => answer);
    const attempt = await beginLogin("/");
    tokenAnswer({}, await site.signIdToken(claims(attempt.nonce)));
    const error = await failure(finish(attempt));
    expect(error.code).toBe(code);
    expect(await loadSession(attempt.jar)).toBeNull();
    const call = site.callsTo("/api/oauth/userinfo").at(-1)!;
    expect(call.headers.authorization).toBe("Bearer at-1");
  });
});

describe("checklist 16: an error response with a missing or foreign iss", () => {
  it.each([
    ["a missing iss", undefined],
    ["a foreign iss", "https://evil.example"],
  ])("checklist 16: with %s is not trusted as our site's; the transaction is cleared, the description never echoed", async (_name, iss) => {
    const attempt = await beginLogin("/");
    const tokenCalls = site.callsTo("/api/oauth/token").length;
    const error = await failure(
      finish(attempt, { code: undefined, error: "access_denied", error_description: "<script>alert(1)</script>", iss }),
    );
    expect(error.code).toBe("issuer_mismatch");
    expect(error.message).not.toContain("<script>");
    expect([...attempt.jar.cookies.keys()].some((name) => name.startsWith("dash_tx_"))).toBe(false);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(tokenCalls);
  });
});

describe("checklist 8: the transaction and session cookies cannot be swapped", () => {
  it("checklist 8: transaction value as session opens nothing, session value as transaction signs nobody in", async () => {
    const attempt = await beginLogin("/");
    const [txName, txValue] = [...attempt.jar.cookies].find(([name]) => name.startsWith("dash_tx_"))!;
    expect(await loadSession(memoryJar({ [sessionCookieName("top")]: txValue }))).toBeNull();

    const signedIn = await beginLogin("/");
    tokenAnswer({}, await site.signIdToken(claims(signedIn.nonce)));
    await finish(signedIn);
    const sessionValue = signedIn.jar.cookies.get(sessionCookieName("top"))!;
    expect(await takeTransaction(memoryJar({ [txName]: sessionValue }), attempt.state)).toBeNull();
  });
});

describe("checklist 3: discovery or the JWKS answering non-JSON", () => {
  it("checklist 3: discovery answering HTML gives a generic 'sign-in unavailable', no half-configured client", async () => {
    const metadata = site.handlers.get("GET /.well-known/oauth-authorization-server")!;
    site.handlers.set("GET /.well-known/oauth-authorization-server", () => ({
      text: "<html>maintenance</html>",
      headers: { "content-type": "text/html" },
    }));
    try {
      const jar = memoryJar();
      const error = await failure(startLogin(jar, "/"));
      expect(error.code).toBe("site_unavailable");
      expect(jar.cookies.size).toBe(0);
    } finally {
      site.handlers.set("GET /.well-known/oauth-authorization-server", metadata);
      resetDiscoveryCacheForTests();
    }
  });

  it.each([
    ["HTML", { text: "<html>oops</html>", headers: { "content-type": "text/html" } }],
    ["404", { status: 404, text: "not found" }],
  ])("checklist 3: a JWKS answering %s gives no session", async (name, answer) => {
    // A key set at an address of its own, so that no key set fetched before answers for it.
    const metadata = site.handlers.get("GET /.well-known/oauth-authorization-server")!;
    const elsewhere = () => ({ json: { ...(metadata(site.calls[0]!).json as object), jwks_uri: `${site.url}/jwks-${name}` } });
    site.handlers.set("GET /.well-known/oauth-authorization-server", elsewhere);
    site.handlers.set("GET /.well-known/openid-configuration", elsewhere);
    site.handlers.set(`GET /jwks-${name}`, () => answer);
    resetDiscoveryCacheForTests();
    const attempt = await beginLogin("/");
    tokenAnswer({}, await site.signIdToken(claims(attempt.nonce)));
    const error = await failure(finish(attempt));
    // The generic "sign-in unavailable", naming the key set: no verdict on the token it could not check.
    expect(error).toMatchObject({ code: "site_unavailable", detail: "jwks" });
    expect(await loadSession(attempt.jar)).toBeNull();
    expect(site.callsTo(`/jwks-${name}`).length).toBeGreaterThan(0);
    resetDiscoveryCacheForTests();
  });
});

describe("checklist 52: a refresh answer without refresh_token or expires_in", () => {
  it("checklist 52: keeps the old refresh token and assumes the default lifetime, no crash", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({ json: { access_token: "at-2", token_type: "Bearer" } }));
    const { session, changed } = await ensureFreshTokens(expiringSession());
    expect(changed).toBe(true);
    expect(session.accessToken).toBe("at-2");
    expect(session.refreshToken).toBe("rt-0");
    expect(session.accessTokenExpiresAt - Date.now()).toBeLessThanOrEqual(DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS * 1000);
    expect(session.accessTokenExpiresAt - Date.now()).toBeGreaterThan((DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS - 5) * 1000);
  });

  it("the same members written null, as a serializer of every field writes them: read as left out, the scope as before", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({
      json: { access_token: "at-2", token_type: "Bearer", expires_in: null, scope: null, refresh_token: null, id_token: null },
    }));
    const before = expiringSession({ refreshToken: "rt-null-members" });
    const { session, changed } = await ensureFreshTokens(before);
    expect(changed).toBe(true);
    expect(session.accessToken).toBe("at-2");
    expect(session.refreshToken).toBe("rt-null-members");
    expect(session.scopes).toEqual(before.scopes);
    expect(session.accessTokenExpiresAt - Date.now()).toBeGreaterThan((DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS - 5) * 1000);
  });

  it("a lifetime written as a string of digits (Azure AD v1.0) is that many seconds; one that is no number is refused", async () => {
    // oauth4webapi reads a string expires_in as the number it writes (parseFloat), and refuses one that writes none.
    site.handlers.set("POST /api/oauth/token", () => ({ json: { access_token: "at-2", token_type: "Bearer", expires_in: "120" } }));
    const { session } = await ensureFreshTokens(expiringSession({ refreshToken: "rt-lifetime-text" }));
    expect(session.accessToken).toBe("at-2");
    expect(session.accessTokenExpiresAt - Date.now()).toBeLessThanOrEqual(120_000);
    expect(session.accessTokenExpiresAt - Date.now()).toBeGreaterThan(115_000);
    for (const written of ["soon", "", "-60"]) {
      site.handlers.set("POST /api/oauth/token", () => ({ json: { access_token: "at-3", token_type: "Bearer", expires_in: written } }));
      await expect(ensureFreshTokens(expiringSession({ refreshToken: `rt-lifetime-${written}` })), written).rejects.toBeInstanceOf(
        AuthError,
      );
    }
  });

  it("a required member written null is still refused: the renewal fails, nothing is kept", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({ json: { access_token: null, token_type: "Bearer", refresh_token: null } }));
    await expect(ensureFreshTokens(expiringSession({ refreshToken: "rt-null-access" }))).rejects.toBeInstanceOf(AuthError);
  });
});
