/**
 * Security checklist cases 12, 32, 33 and 37, the variants the other files left out, against the fake
 * site with real keys: an `iss` that differs from the issuer only by percent-encoding; PS256 and ES384
 * under keys the site's JWKS really holds, HS256 keyed with the site's public key; a legitimate key
 * rotation and many unknown `kid`s; a JWT that repeats a claim or header name.
 */
import { createPublicKey } from "node:crypto";

import { errors as joseErrors, exportJWK, generateKeyPair, type JWK } from "jose";
import { NextRequest } from "next/server";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { GET as callbackRoute } from "@/app/api/auth/callback/route";
import { handleCallback } from "@/lib/auth/callback";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import type { AuthError } from "@/lib/auth/errors";
import { resetConfigForTests } from "@/lib/config";
import { repeatsAJwtMemberName } from "@/lib/auth/jwt-duplicate-names";
import { loadSession } from "@/lib/session/session";

import { configureDashboard, TEST_APP_URL, TEST_CLIENT_ID } from "../../support/env";
import { setUpFakeSite, type Handler } from "../../support/fake-site";
import { beginLogin, refusal, type SignInAttempt } from "../../support/sign-in-attempt";

const site = setUpFakeSite();
const member = { sub: "member-12", email: "maya@example.com", name: "Maya Chen", org_id: "school_1", roles: ["student"] };
const DISCOVERY_PATHS = ["GET /.well-known/oauth-authorization-server", "GET /.well-known/openid-configuration"];
const noCall = { method: "GET", path: "", body: "", headers: {} };

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
});
beforeEach(() => resetDiscoveryCacheForTests());

function claims(nonce: string): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return { iss: site.url, aud: TEST_CLIENT_ID, iat: now, exp: now + 600, nonce, ...member };
}

/** The token endpoint answers with this id_token, and UserInfo with the member. */
function answerWith(idToken: string): void {
  site.handlers.set("POST /api/oauth/token", () => ({
    json: { access_token: "at-1", token_type: "Bearer", expires_in: 3600, refresh_token: "rt-1", id_token: idToken },
  }));
  site.handlers.set("GET /api/oauth/userinfo", () => ({ json: member }));
}

function finish(attempt: SignInAttempt): Promise<unknown> {
  const url = new URL("/api/auth/callback", TEST_APP_URL);
  url.search = new URLSearchParams({ code: "code-1", state: attempt.state, iss: site.url }).toString();
  return handleCallback(attempt.jar, url);
}

/** The calls the sign-in made past discovery and the key set: token, UserInfo, revocation, PAR, resources. */
function callsPastDiscovery() {
  return site.calls.filter((call) => !call.path.startsWith("/.well-known/") && !call.path.startsWith("/jwks"));
}

/** The id_token is refused (with `detail`), before UserInfo, and nobody is signed in. */
async function expectIdTokenRefused(attempt: SignInAttempt, detail: string): Promise<AuthError> {
  const userInfoCalls = site.callsTo("/api/oauth/userinfo").length;
  const error = await refusal(finish(attempt));
  expect(error.code).toBe("id_token_invalid");
  expect(error.detail).toBe(detail);
  expect(site.callsTo("/api/oauth/userinfo")).toHaveLength(userInfoCalls);
  expect(await loadSession(attempt.jar)).toBeNull();
  // UserInfo was set up for a sign-in that must not reach it.
  site.handlers.delete("GET /api/oauth/userinfo");
  return error;
}

/**
 * Runs `body` on a clock that stands still until `advance(ms)` moves it: Date itself is faked (jose reads
 * `Date.now()` for its key-set cooldown and `new Date()` for claim times), timers and I/O run as usual.
 */
async function withMovableClock(body: (advance: (ms: number) => void) => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  try {
    await body((ms) => vi.setSystemTime(Date.now() + ms));
  } finally {
    vi.useRealTimers();
  }
}

let keySetsServed = 0;

/**
 * Discovery names a key set of its own (jose keeps one per jwks_uri, so no other test's cache is in the
 * way), served by `keys()` at each fetch, and lists `algs` as its id_token algorithms. Returns the path.
 */
function serveKeySet(keys: () => JWK[], algs: string[] = ["ES256"]): string {
  keySetsServed += 1;
  const jwksPath = `/jwks-remaining-${keySetsServed}`;
  site.handlers.set(`GET ${jwksPath}`, () => ({ json: { keys: keys() } }));
  for (const key of DISCOVERY_PATHS) {
    const metadata = site.handlers.get(key)!(noCall).json as Record<string, unknown>;
    const handler: Handler = () => ({
      json: { ...metadata, jwks_uri: `${site.url}${jwksPath}`, id_token_signing_alg_values_supported: algs },
    });
    site.handlers.set(key, handler);
  }
  resetDiscoveryCacheForTests();
  return jwksPath;
}

/** The site's own public key as its JWKS lists it. */
function siteJwk(): JWK {
  return (site.handlers.get("GET /jwks")!(noCall).json as { keys: JWK[] }).keys[0]!;
}

afterEach(() => resetDiscoveryCacheForTests());

describe("checklist 12: an iss that differs from the issuer only by percent-encoding", () => {
  /** The callback with `rawIss` written into the query as is (the browser sends it so; the route form-decodes it once). */
  function callbackWithRawIss(attempt: SignInAttempt, rawIss: string): URL {
    return new URL(`/api/auth/callback?code=code-1&state=${attempt.state}&iss=${rawIss}`, TEST_APP_URL);
  }

  it.each<[string, (issuer: string) => string]>([
    ["an encoded scheme letter (%68ttp, sent as %2568ttp)", (issuer) => `%2568${issuer.slice(1)}`],
    ["an encoded dot in the host", (issuer) => issuer.replace("127.0.0.1", "127%252E0.0.1")],
    ["an encoded colon before the port", (issuer) => issuer.replace(/:(\d+)$/, "%253A$1")],
    ["an encoded slash as its path", (issuer) => `${issuer}%252F`],
    ["the whole issuer encoded twice", (issuer) => encodeURIComponent(encodeURIComponent(issuer))],
  ])(
    "checklist 12: %s is refused after one form-decoding and an exact comparison; no token, UserInfo or other call",
    async (_name, spell) => {
      const attempt = await beginLogin();
      const url = callbackWithRawIss(attempt, spell(site.url));
      // What the dashboard compares: one form-decoding done, still percent-encoded; a second decoding would give the issuer.
      expect(url.searchParams.get("iss")).not.toBe(site.url);
      expect([site.url, `${site.url}/`]).toContain(decodeURIComponent(url.searchParams.get("iss")!));
      const error = await refusal(handleCallback(attempt.jar, url));
      expect(error.code).toBe("issuer_mismatch");
      expect(callsPastDiscovery()).toHaveLength(0);
      expect(await loadSession(attempt.jar)).toBeNull();
    },
  );

  it("checklist 12: the issuer percent-encoded character by character is the issuer after form-decoding, and signs in", async () => {
    const attempt = await beginLogin();
    const everyCharacter = [...site.url].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
    answerWith(await site.signIdToken(claims(attempt.nonce)));
    await handleCallback(attempt.jar, callbackWithRawIss(attempt, everyCharacter));
    expect((await loadSession(attempt.jar))?.data.claims.sub).toBe(member.sub);
  });
});

describe("checklist 32: ES256 is the only algorithm, even under keys the site's JWKS really holds", () => {
  it.each([
    ["PS256", "ps256-key"],
    ["ES384", "es384-key"],
  ])(
    "checklist 32: an id_token signed %s with a key of the site's JWKS (that alg, advertised in discovery) is refused",
    async (alg, kid) => {
      const other = await generateKeyPair(alg, { extractable: true });
      const otherJwk: JWK = { ...(await exportJWK(other.publicKey)), kid, alg, use: "sig" };
      serveKeySet(() => [siteJwk(), otherJwk], ["ES256", "PS256", "ES384"]);
      // The key set works: an ES256 id_token under the site's key signs in.
      const control = await beginLogin();
      answerWith(await site.signIdToken(claims(control.nonce)));
      await finish(control);
      expect(await loadSession(control.jar)).not.toBeNull();

      const attempt = await beginLogin();
      answerWith(await site.signIdToken(claims(attempt.nonce), { alg, kid, key: other.privateKey }));
      // Refused by the ES256-only list itself, before any key is looked up.
      expect((await expectIdTokenRefused(attempt, "alg")).cause).toBeInstanceOf(joseErrors.JOSEAlgNotAllowed);
    },
  );

  /** The site's public key as a Node KeyObject, to export its bytes the ways a confused verifier might read them. */
  const sitePublicKey = () => createPublicKey({ key: { ...siteJwk() }, format: "jwk" });

  it.each<[string, () => Uint8Array]>([
    ["its SPKI PEM text", () => new TextEncoder().encode(sitePublicKey().export({ type: "spki", format: "pem" }).toString())],
    ["its SPKI DER bytes", () => new Uint8Array(sitePublicKey().export({ type: "spki", format: "der" }))],
    ["its JWK as the JWKS lists it", () => new TextEncoder().encode(JSON.stringify(siteJwk()))],
  ])("checklist 32: an id_token signed HS256 with the site's public key bytes (%s) as the secret is refused", async (_name, secret) => {
    const attempt = await beginLogin();
    answerWith(await site.signIdToken(claims(attempt.nonce), { alg: "HS256", key: secret() }));
    // Refused by the ES256-only list itself (jose's key set, which serves no symmetric key, would refuse it next).
    expect((await expectIdTokenRefused(attempt, "alg")).cause).toBeInstanceOf(joseErrors.JOSEAlgNotAllowed);
  });
});

describe("checklist 33: an unknown kid, a legitimate rotation and many unknown kids", () => {
  const COOLDOWN_MS = 30_000;

  it("checklist 33: after the site rotates its key, a sign-in under the new key re-fetches the key set once and succeeds", async () => {
    const rotated = await generateKeyPair("ES256", { extractable: true });
    const rotatedJwk: JWK = { ...(await exportJWK(rotated.publicKey)), kid: "rotated-key", alg: "ES256", use: "sig" };
    let served: JWK[] = [siteJwk()];
    const jwksPath = serveKeySet(() => served);
    await withMovableClock(async (advance) => {
      const before = await beginLogin();
      answerWith(await site.signIdToken(claims(before.nonce)));
      await finish(before);
      expect(site.callsTo(jwksPath)).toHaveLength(1);

      // A minute later (past the re-fetch cooldown, well within the cache's ten minutes) the site
      // retires its key and signs with a new one.
      advance(60_000);
      served = [rotatedJwk];
      const after = await beginLogin();
      answerWith(await site.signIdToken(claims(after.nonce), { kid: "rotated-key", key: rotated.privateKey }));
      await finish(after);
      expect((await loadSession(after.jar))?.data.claims.sub).toBe(member.sub);
      expect(site.callsTo(jwksPath)).toHaveLength(2);

      // The retired key is gone from the re-fetched set: an id_token under it is refused.
      const retired = await beginLogin();
      answerWith(await site.signIdToken(claims(retired.nonce)));
      await expectIdTokenRefused(retired, "kid");
    });
  });

  it("checklist 33: forty unknown kids over two minutes re-fetch the key set at most once per cooldown, and each is refused", async () => {
    const jwksPath = serveKeySet(() => [siteJwk()]);
    const attacker = await generateKeyPair("ES256");
    await withMovableClock(async (advance) => {
      const first = await beginLogin();
      answerWith(await site.signIdToken(claims(first.nonce)));
      await finish(first);
      const attempts = 40;
      const spacingMs = 3_000;
      for (let index = 0; index < attempts; index += 1) {
        advance(spacingMs);
        const attempt = await beginLogin();
        answerWith(await site.signIdToken(claims(attempt.nonce), { kid: `unknown-${index}`, key: attacker.privateKey }));
        await expectIdTokenRefused(attempt, "kid");
      }
      // The first fetch, then at most one re-fetch per cooldown over the 120 seconds.
      const refetches = site.callsTo(jwksPath).length - 1;
      expect(refetches).toBeGreaterThanOrEqual(1);
      expect(refetches).toBeLessThanOrEqual(Math.ceil((attempts * spacingMs) / COOLDOWN_MS));
    });
  });
});

describe("checklist 37: a JWT that repeats a claim or header name", () => {
  const encode = (text: string) => Buffer.from(text).toString("base64url");

  /** A compact JWS over exactly these header and payload bytes, signed with the site's real key. */
  async function signedRaw(payload: string, header = JSON.stringify({ alg: "ES256", kid: site.kid, typ: "JWT" })): Promise<string> {
    const input = `${encode(header)}.${encode(payload)}`;
    const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, site.privateKey, new TextEncoder().encode(input));
    return `${input}.${Buffer.from(signature).toString("base64url")}`;
  }

  /** The claims as JSON with `"sub":"someone-else"` written first, before the member's own `sub`. */
  function twoSubs(nonce: string, firstName = '"sub"'): string {
    return `{${firstName}:"someone-else",${JSON.stringify(claims(nonce)).slice(1)}`;
  }

  it("checklist 37: the same claims without a repeated name, signed the same way, sign in", async () => {
    const attempt = await beginLogin();
    answerWith(await signedRaw(JSON.stringify(claims(attempt.nonce))));
    await finish(attempt);
    expect(await loadSession(attempt.jar)).not.toBeNull();
  });

  it.each<[string, (nonce: string) => Promise<string>]>([
    ["two sub claims", (nonce) => signedRaw(twoSubs(nonce))],
    ["two sub claims, one spelled with a JSON escape", (nonce) => signedRaw(twoSubs(nonce, '"s\\u0075b"'))],
    ["two aud claims", (nonce) => signedRaw(`{"aud":"another-client",${JSON.stringify(claims(nonce)).slice(1)}`)],
    [
      "a header that repeats alg",
      (nonce) => signedRaw(JSON.stringify(claims(nonce)), `{"alg":"none","alg":"ES256","kid":${JSON.stringify(site.kid)}}`),
    ],
  ])("checklist 37: an id_token with %s (RFC 7519 section 4) is refused before UserInfo", async (_name, idToken) => {
    const attempt = await beginLogin();
    answerWith(await idToken(attempt.nonce));
    await expectIdTokenRefused(attempt, "duplicate_name");
  });

  it.each<[string, (nonce: string) => Promise<string>]>([
    ["a repeated claim name", (nonce) => signedRaw(twoSubs(nonce))],
    ["two segments", async (nonce) => (await site.signIdToken(claims(nonce))).split(".").slice(0, 2).join(".")],
    ["four segments", async (nonce) => `${await site.signIdToken(claims(nonce))}.AAAA`],
    ["a payload that is not base64url", async (nonce) => (await site.signIdToken(claims(nonce))).replace(/\.[^.]+\./, ".%%%.")],
    ["aud as a number", (nonce) => signedRaw(JSON.stringify({ ...claims(nonce), aud: 42 }))],
    ["exp as a string", (nonce) => signedRaw(JSON.stringify({ ...claims(nonce), exp: String(Math.floor(Date.now() / 1000) + 600) }))],
  ])("checklist 37: at the callback route, %s ends on the sign-in problem page, never a 500", async (_name, idToken) => {
    const attempt = await beginLogin();
    answerWith(await idToken(attempt.nonce));
    const url = new URL("/api/auth/callback", TEST_APP_URL);
    url.search = new URLSearchParams({ code: "code-1", state: attempt.state, iss: site.url }).toString();
    const response = await callbackRoute(new NextRequest(url, { headers: { cookie: attempt.jar.header() } }));
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${TEST_APP_URL}/sign-in-problem`);
    expect(location.searchParams.get("code")).toBe("id_token_invalid");
    expect(response.headers.getSetCookie().join("\n")).not.toMatch(/dash_session=[^;]/);
    expect(await response.text()).toBe("");
    expect(site.callsTo("/api/oauth/userinfo")).toHaveLength(0);
    site.handlers.delete("GET /api/oauth/userinfo");
  });
});

describe("checklist 37: what counts as a repeated name", () => {
  const token = (header: string, payload: string) =>
    `${Buffer.from(header).toString("base64url")}.${Buffer.from(payload).toString("base64url")}.c2ln`;
  const header = '{"alg":"ES256","kid":"k"}';

  it.each([
    ["the same name in two different objects", '{"sub":"a","address":{"sub":"b"},"other":{"sub":"c"}}'],
    ["the same name in objects of an array", '{"sub":"a","items":[{"id":1},{"id":2}]}'],
    ["brackets, colons and escaped quotes inside strings", '{"sub":"a:{\\"sub\\":1}","name":"[\\"x\\"]","n":"}"}'],
    ["a name that differs only by case", '{"sub":"a","Sub":"b"}'],
  ])("checklist 37: %s is not a repeated name", (_name, payload) => {
    expect(JSON.parse(payload)).toBeTypeOf("object");
    expect(repeatsAJwtMemberName(token(header, payload))).toBe(false);
  });

  it.each([
    ["a repeated top-level claim", '{"sub":"a","sub":"b"}'],
    ["a name repeated inside a nested object", '{"sub":"a","address":{"country":"TW","country":"US"}}'],
    ["a name repeated inside an object in an array", '{"sub":"a","items":[{"id":1,"id":2}]}'],
    ["a repeat spelled with an escape", '{"sub":"a","\\u0073ub":"b"}'],
  ])("checklist 37: %s is a repeated name", (_name, payload) => {
    expect(repeatsAJwtMemberName(token(header, payload))).toBe(true);
  });

  it("checklist 37: a header that repeats a parameter is a repeated name", () => {
    expect(repeatsAJwtMemberName(token('{"alg":"none","alg":"ES256"}', '{"sub":"a"}'))).toBe(true);
  });
});
