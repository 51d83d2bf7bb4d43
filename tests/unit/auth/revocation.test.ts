import { beforeEach, describe, expect, it } from "vitest";

import { revokeAtSite } from "@/lib/auth/revocation";
import { ensureFreshTokens } from "@/lib/auth/tokens";

import { captureLog } from "../../support/captured-log";
import { setUpDashboardOnFakeSite } from "../../support/dashboard-on-fake-site";
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "../../support/env";
import { expiringSession } from "../../support/session-fixture";

const site = setUpDashboardOnFakeSite();

beforeEach(() => {
  site.handlers.set("POST /api/oauth/revoke", () => ({ status: 200, text: "" }));
});

function revocations(): { token: string | null; hint: string | null; clientId: string | null; secret: string | null }[] {
  return site.callsTo("/api/oauth/revoke").map((call) => {
    const body = call.body as URLSearchParams;
    return {
      token: body.get("token"),
      hint: body.get("token_type_hint"),
      clientId: body.get("client_id"),
      secret: body.get("client_secret"),
    };
  });
}

describe("revocation at the site (RFC 7009)", () => {
  it("revokes the refresh token, then the access token, each with its token_type_hint and client authentication", async () => {
    await revokeAtSite(expiringSession());
    expect(revocations()).toEqual([
      { token: "rt-0", hint: "refresh_token", clientId: TEST_CLIENT_ID, secret: TEST_CLIENT_SECRET },
      { token: "at-0", hint: "access_token", clientId: TEST_CLIENT_ID, secret: TEST_CLIENT_SECRET },
    ]);
  });

  it("revokes the access token alone when the session holds no refresh token", async () => {
    await revokeAtSite(expiringSession({ refreshToken: null }));
    expect(revocations().map(({ token, hint }) => [token, hint])).toEqual([["at-0", "access_token"]]);
  });

  it("revokes the rotated successor when the cookie asking is older than a rotation", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({
      json: { access_token: "at-1", token_type: "Bearer", expires_in: 3600, refresh_token: "rt-1" },
    }));
    const old = expiringSession();
    // Another request rotated rt-0 into rt-1; this cookie still holds rt-0.
    await ensureFreshTokens(old);
    await revokeAtSite(old);
    const revoked = revocations().map(({ token, hint }) => [token, hint]);
    expect(revoked).toEqual(
      expect.arrayContaining([
        ["rt-1", "refresh_token"],
        ["at-1", "access_token"],
        ["rt-0", "refresh_token"],
      ]),
    );
    expect(revoked[0]).toEqual(["rt-1", "refresh_token"]);
  });

  it("waits for a refresh in flight and revokes its result too (finding 8: sign-out racing a refresh)", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({
      delayMs: 300,
      json: { access_token: "at-1", token_type: "Bearer", expires_in: 3600, refresh_token: "rt-1" },
    }));
    const old = expiringSession();
    // Another request (on any instance) is refreshing rt-0 while the member signs out with the same cookie.
    const refreshing = ensureFreshTokens(old);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await revokeAtSite(old);
    await refreshing;
    expect(revocations().map(({ token }) => token)).toEqual(expect.arrayContaining(["rt-1", "rt-0"]));
  });

  it.each<{ status: number; json: unknown; headers: Record<string, string>; detail: string }>([
    { status: 400, json: { error: "unsupported_token_type" }, headers: {}, detail: "unsupported_token_type" },
    { status: 401, json: { error: "invalid_client" }, headers: {}, detail: "invalid_client" },
    {
      status: 401,
      json: { error: "invalid_client" },
      headers: { "www-authenticate": 'Basic realm="site", error="invalid_client"' },
      detail: "invalid_client",
    },
    { status: 403, json: undefined, headers: {}, detail: "unknown" },
  ])("calls a $status ($detail) a configuration fault, logged as such without the token", async ({ status, json, headers, detail }) => {
    const log = captureLog();
    site.handlers.set("POST /api/oauth/revoke", () => ({ status, headers, ...(json ? { json } : { text: "Forbidden" }) }));
    await expect(revokeAtSite(expiringSession())).rejects.toMatchObject({ code: "revocation_refused", detail });
    expect(log.events()).toContainEqual(
      expect.objectContaining({ event: "revocation_failed", reason: "configuration", status, level: "error" }),
    );
    expect(log.text()).not.toMatch(/rt-0|at-0|test-client-secret/);
  });

  it("calls a 503 or a dead site 'unavailable', not a configuration fault", async () => {
    site.handlers.set("POST /api/oauth/revoke", () => ({
      status: 503,
      json: { error: "temporarily_unavailable" },
      headers: { "retry-after": "1" },
    }));
    await expect(revokeAtSite(expiringSession())).rejects.toMatchObject({ code: "revocation_unavailable" });
  });

  it.each<[string, { status: number; json?: unknown; text?: string; headers?: Record<string, string> }]>([
    ["429 with an OAuth error body", { status: 429, json: { error: "invalid_request", error_description: "slow down" } }],
    ["429 without one", { status: 429, text: "Too Many Requests" }],
    ["403 naming temporarily_unavailable", { status: 403, json: { error: "temporarily_unavailable" } }],
    // GitHub's manner: a 403 with a wait, or with its rate limit used up, limits how often the site answers.
    ["403 with a wait", { status: 403, json: { error: "invalid_request" }, headers: { "retry-after": "30" } }],
    ["403 with its rate limit used up, as a page", { status: 403, text: "Forbidden", headers: { "x-ratelimit-remaining": "0" } }],
  ])("calls a busy site (%s) 'unavailable': the member keeps the session and may try again", async (_name, answer) => {
    const log = captureLog();
    site.handlers.set("POST /api/oauth/revoke", () => answer);
    await expect(revokeAtSite(expiringSession())).rejects.toMatchObject({ code: "revocation_unavailable" });
    expect(log.events()).toContainEqual(expect.objectContaining({ event: "revocation_failed", reason: "unreachable" }));
  });
});
