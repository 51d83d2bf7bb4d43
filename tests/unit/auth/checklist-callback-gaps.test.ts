/**
 * Security checklist cases 9, 10, 12, 23, 24 and 37, against the fake site with real ES256 keys: a callback
 * without its transaction or with a missing or empty state never reaches the token endpoint; an id_token
 * without `iss` or `aud`, or malformed, is refused with a sign-in error, never a crash, and no session.
 */
import { CompactSign } from "jose";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { handleCallback } from "@/lib/auth/callback";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { resetConfigForTests } from "@/lib/config";
import { loadSession } from "@/lib/session/session";

import { configureDashboard, TEST_APP_URL, TEST_CLIENT_ID } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";
import { memoryJar } from "../../support/memory-jar";
import { beginLogin, refusal } from "../../support/sign-in-attempt";

const site = setUpFakeSite();
const member = { sub: "member-9", email: "maya@example.com", name: "Maya Chen", org_id: "school_1", roles: ["student"] };

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
});
beforeEach(() => resetDiscoveryCacheForTests());

function callbackUrl(params: Record<string, string | undefined>): URL {
  const url = new URL("/api/auth/callback", TEST_APP_URL);
  for (const [key, value] of Object.entries({ code: "code-1", iss: site.url, ...params })) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  return url;
}

describe("checklist 9 and 10: no token request without this browser's transaction and its exact state", () => {
  it("checklist 9: a valid code and state without the transaction cookie (login CSRF) is refused before any token request", async () => {
    const attempt = await beginLogin("/");
    const victim = memoryJar();
    const error = await refusal(handleCallback(victim, callbackUrl({ state: attempt.state })));
    expect(error.code).toBe("login_expired");
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
    expect(await loadSession(victim)).toBeNull();
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["changed by one character", "changed"],
  ])("checklist 10: a %s state is refused: no token, UserInfo or resource call", async (_name, state) => {
    const attempt = await beginLogin("/");
    const value = state === "changed" ? `${attempt.state.slice(0, -1)}${attempt.state.endsWith("A") ? "B" : "A"}` : state;
    await refusal(handleCallback(attempt.jar, callbackUrl({ state: value })));
    expect(site.calls.filter((call) => !call.path.startsWith("/.well-known/") && call.path !== "/jwks")).toHaveLength(0);
    expect(await loadSession(attempt.jar)).toBeNull();
  });
});

describe("checklist 12: the callback's iss is the issuer plus one character", () => {
  it("checklist 12: is refused before any token request", async () => {
    const attempt = await beginLogin("/");
    const error = await refusal(handleCallback(attempt.jar, callbackUrl({ state: attempt.state, iss: `${site.url}1` })));
    expect(error.code).toBe("issuer_mismatch");
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
  });
});

describe("checklist 23, 24 and 37: an id_token without iss or aud, or malformed", () => {
  function claims(nonce: string): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    return { iss: site.url, aud: TEST_CLIENT_ID, iat: now, exp: now + 600, nonce, ...member };
  }

  /** A compact JWS over exactly these payload bytes, signed with the site's real key. */
  async function signedRaw(payload: string): Promise<string> {
    return new CompactSign(new TextEncoder().encode(payload)).setProtectedHeader({ alg: "ES256", kid: site.kid }).sign(site.privateKey);
  }

  async function expectRefused(idToken: (nonce: string) => Promise<string>): Promise<void> {
    const attempt = await beginLogin("/");
    const token = await idToken(attempt.nonce);
    site.handlers.set("POST /api/oauth/token", () => ({
      json: { access_token: "at-1", token_type: "Bearer", expires_in: 3600, refresh_token: "rt-1", id_token: token },
    }));
    const error = await refusal(handleCallback(attempt.jar, callbackUrl({ state: attempt.state })));
    expect(error.code).toBe("id_token_invalid");
    expect(error.message).not.toMatch(/at-1|rt-1|\n\s+at /);
    expect(site.callsTo("/api/oauth/userinfo")).toHaveLength(0);
    expect(await loadSession(attempt.jar)).toBeNull();
  }

  it("checklist 23: refuses an id_token without iss; no UserInfo call, no session", () =>
    expectRefused((nonce) => site.signIdToken({ ...claims(nonce), iss: undefined })));

  it("checklist 24: refuses an id_token without aud", () =>
    expectRefused((nonce) => site.signIdToken({ ...claims(nonce), aud: undefined })));

  it.each<[string, (nonce: string) => Promise<string>]>([
    ["two segments", async (nonce) => (await site.signIdToken(claims(nonce))).split(".").slice(0, 2).join(".")],
    ["four segments", async (nonce) => `${await site.signIdToken(claims(nonce))}.AAAA`],
    [
      "a payload that is not base64url",
      async (nonce) => {
        const [header, , signature] = (await site.signIdToken(claims(nonce))).split(".");
        return `${header}.%%%not-base64%%%.${signature}`;
      },
    ],
    ["aud as a number", (nonce) => signedRaw(JSON.stringify({ ...claims(nonce), aud: 42 }))],
    ["exp as a string", (nonce) => signedRaw(JSON.stringify({ ...claims(nonce), exp: String(Math.floor(Date.now() / 1000) + 600) }))],
  ])("checklist 37: refuses a malformed id_token (%s) with a sign-in error, never a crash", (_name, idToken) => expectRefused(idToken));
});
