import { beforeAll, expect, it } from "vitest";

import { handleCallback } from "@/lib/auth/callback";
import { startLogin } from "@/lib/auth/login";
import { ensureFreshTokens } from "@/lib/auth/tokens";
import { loadSession } from "@/lib/session/session";

import { configureDashboard, TEST_APP_URL, TEST_CLIENT_ID } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";
import { memoryJar } from "../../support/memory-jar";
import { expiringSession } from "../../support/session-fixture";

const site = setUpFakeSite({ idTokens: false });

beforeAll(() => {
  configureDashboard(site.url);
});

it("relies on UserInfo alone when discovery lacks jwks_uri and the alg list", async () => {
  site.handlers.set("POST /api/oauth/token", () => ({
    json: { access_token: "at", token_type: "Bearer", expires_in: 60, refresh_token: "rt" },
  }));
  site.handlers.set("GET /api/oauth/userinfo", () => ({
    json: { sub: "s1", email: "ben@example.com", name: "Ben", org_id: "o", roles: ["student"] },
  }));
  const jar = memoryJar();
  const url = await startLogin(jar, "/");
  const callback = new URL("/api/auth/callback", TEST_APP_URL);
  callback.search = new URLSearchParams({ code: "c", state: url.searchParams.get("state")!, iss: site.url }).toString();
  await handleCallback(jar, callback);
  const session = await loadSession(jar);
  expect(session?.data.claims.email).toBe("ben@example.com");
  expect(site.callsTo("/jwks")).toHaveLength(0);
});

it("refuses UserInfo without a subject", async () => {
  site.handlers.set("POST /api/oauth/token", () => ({ json: { access_token: "at", token_type: "Bearer", expires_in: 60 } }));
  site.handlers.set("GET /api/oauth/userinfo", () => ({ json: { email: "ben@example.com" } }));
  const jar = memoryJar();
  const url = await startLogin(jar, "/");
  const callback = new URL("/api/auth/callback", TEST_APP_URL);
  callback.search = new URLSearchParams({ code: "c", state: url.searchParams.get("state")!, iss: site.url }).toString();
  await expect(handleCallback(jar, callback)).rejects.toMatchObject({ code: "userinfo_mismatch" });
  expect(await loadSession(jar)).toBeNull();
});

it("ends the session when a refresh answer carries an id_token the site lists no keys to verify", async () => {
  // Such an id_token cannot be verified, so nothing in it is believed (OpenID Connect Core 3.1.3.7): the
  // new tokens are refused and the session ends, naming the missing jwks_uri rather than the token.
  const now = Math.floor(Date.now() / 1000);
  const idToken = await site.signIdToken({ iss: site.url, aud: TEST_CLIENT_ID, sub: "s", iat: now, exp: now + 600 });
  site.handlers.set("POST /api/oauth/token", () => ({
    json: { access_token: "at-9", token_type: "Bearer", expires_in: 60, refresh_token: "rt-9", id_token: idToken },
  }));
  await expect(ensureFreshTokens(expiringSession())).rejects.toMatchObject({ code: "session_ended", detail: "jwks_uri" });
  expect(site.callsTo("/jwks")).toHaveLength(0);
});
