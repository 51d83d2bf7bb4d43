import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEEDED_DASHBOARD_CLIENT } from "../seed";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { obtainTokens, postForm, refreshTokens, userinfo } from "./helpers";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

const dashboardAuth = { client_id: SEEDED_DASHBOARD_CLIENT.clientId, client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret };

describe("userinfo", () => {
  it("returns the claims with roles ordered highest first", async () => {
    const maya = await obtainTokens(sandbox);
    const response = await userinfo(sandbox, maya.accessToken);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      sub: "member_7c1e90",
      email: "maya@example.com",
      email_verified: true,
      name: "Maya Chen",
      org_id: "school_4f2a",
      roles: ["student"],
    });
    const olivia = await obtainTokens(sandbox, { email: "olivia@example.com" });
    expect((await userinfo(sandbox, olivia.accessToken)).body.roles).toEqual(["owner", "admin", "student"]);
  });

  it("answers a bad token with 401 and a WWW-Authenticate challenge", async () => {
    const response = await userinfo(sandbox, "sat_not-a-token");
    expect(response.status).toBe(401);
    expect(response.body.error).toBe("invalid_token");
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(`resource_metadata="${sandbox.url}/.well-known/oauth-protected-resource"`);
  });

  it("answers a missing token with 401", async () => {
    const response = await fetch(`${sandbox.url}/api/oauth/userinfo`);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
  });

  it("does not accept the token in the query string", async () => {
    const tokens = await obtainTokens(sandbox);
    const response = await fetch(`${sandbox.url}/api/oauth/userinfo?access_token=${tokens.accessToken}`);
    expect(response.status).toBe(401);
  });

  it("answers an expired token with 401", async () => {
    const short = await startSandbox({ port: 0, knobs: { accessTokenTtlSeconds: 20 } });
    try {
      const tokens = await obtainTokens(short);
      expect(tokens.body.expires_in).toBe(20);
      expect((await userinfo(short, tokens.accessToken)).status).toBe(200);
      short.setKnobs({ clockOffsetMs: 21_000 });
      const expired = await userinfo(short, tokens.accessToken);
      expect(expired.status).toBe(401);
      expect(expired.headers.get("www-authenticate")).toContain("expired");
    } finally {
      await short.close();
    }
  });

  it("needs the openid scope (403 insufficient_scope)", async () => {
    const tokens = await obtainTokens(sandbox, { scope: "account:read" });
    const response = await userinfo(sandbox, tokens.accessToken);
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  });
});

describe("revocation (RFC 7009)", () => {
  it("answers 200 for an unknown token", async () => {
    const response = await postForm(`${sandbox.url}/api/oauth/revoke`, { token: "never-issued", ...dashboardAuth });
    expect(response.status).toBe(200);
  });

  it.each([
    ["also ends its access tokens", true, 401],
    ["with refreshRevocationEndsGrant off, ends that refresh token only", false, 200],
  ])("revoking a refresh token %s", async (_name, endsGrant, accessTokenStatus) => {
    sandbox.setKnobs({ refreshRevocationEndsGrant: endsGrant });
    try {
      const tokens = await obtainTokens(sandbox);
      const response = await postForm(`${sandbox.url}/api/oauth/revoke`, {
        token: tokens.refreshToken,
        token_type_hint: "refresh_token",
        ...dashboardAuth,
      });
      expect(response.status).toBe(200);
      expect((await userinfo(sandbox, tokens.accessToken)).status).toBe(accessTokenStatus);
      expect((await refreshTokens(sandbox, tokens.refreshToken)).body.error).toBe("invalid_grant");
    } finally {
      sandbox.setKnobs({ refreshRevocationEndsGrant: true });
    }
  });

  it("revoking an access token ends that access token only", async () => {
    const tokens = await obtainTokens(sandbox);
    const response = await postForm(`${sandbox.url}/api/oauth/revoke`, { token: tokens.accessToken, ...dashboardAuth });
    expect(response.status).toBe(200);
    expect((await userinfo(sandbox, tokens.accessToken)).status).toBe(401);
    expect((await refreshTokens(sandbox, tokens.refreshToken)).status).toBe(200);
  });

  it("ignores an unknown token_type_hint", async () => {
    const tokens = await obtainTokens(sandbox);
    const response = await postForm(`${sandbox.url}/api/oauth/revoke`, {
      token: tokens.accessToken,
      token_type_hint: "weird",
      ...dashboardAuth,
    });
    expect(response.status).toBe(200);
    expect((await userinfo(sandbox, tokens.accessToken)).status).toBe(401);
  });

  it("authenticates the client like the token endpoint", async () => {
    const tokens = await obtainTokens(sandbox);
    const wrong = await postForm(`${sandbox.url}/api/oauth/revoke`, {
      token: tokens.accessToken,
      client_id: SEEDED_DASHBOARD_CLIENT.clientId,
      client_secret: "nope",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe("invalid_client");
    const missing = await postForm(`${sandbox.url}/api/oauth/revoke`, {
      token: tokens.accessToken,
      client_id: SEEDED_DASHBOARD_CLIENT.clientId,
    });
    expect(missing.status).toBe(401);
    expect((await userinfo(sandbox, tokens.accessToken)).status).toBe(200);
  });

  it("does not let another client revoke the token", async () => {
    const tokens = await obtainTokens(sandbox);
    const response = await postForm(`${sandbox.url}/api/oauth/revoke`, { token: tokens.accessToken, client_id: "companion-public" });
    expect(response.status).toBe(200);
    expect((await userinfo(sandbox, tokens.accessToken)).status).toBe(200);
  });

  it("requires the token parameter", async () => {
    const response = await postForm(`${sandbox.url}/api/oauth/revoke`, { ...dashboardAuth });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("invalid_request");
  });
});

describe("introspection (RFC 7662)", () => {
  it("shows an active access token with aud = the bound resource", async () => {
    const tokens = await obtainTokens(sandbox);
    const response = await postForm(`${sandbox.url}/api/oauth/introspect`, { token: tokens.accessToken, ...dashboardAuth });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      active: true,
      scope: "openid profile email account:read",
      client_id: SEEDED_DASHBOARD_CLIENT.clientId,
      sub: "member_7c1e90",
      token_type: "Bearer",
      aud: sandbox.url,
    });
    expect(Number(response.body.exp) - Number(response.body.iat)).toBe(7200);
  });

  it("shows revoked, unknown and other clients' tokens as inactive", async () => {
    const tokens = await obtainTokens(sandbox);
    await postForm(`${sandbox.url}/api/oauth/revoke`, { token: tokens.accessToken, ...dashboardAuth });
    expect((await postForm(`${sandbox.url}/api/oauth/introspect`, { token: tokens.accessToken, ...dashboardAuth })).body).toEqual({
      active: false,
    });
    expect((await postForm(`${sandbox.url}/api/oauth/introspect`, { token: "nothing", ...dashboardAuth })).body).toEqual({ active: false });
    const other = await obtainTokens(sandbox);
    expect(
      (await postForm(`${sandbox.url}/api/oauth/introspect`, { token: other.accessToken, client_id: "companion-public" })).body,
    ).toEqual({ active: false });
  });

  it("requires client authentication", async () => {
    const tokens = await obtainTokens(sandbox);
    const response = await postForm(`${sandbox.url}/api/oauth/introspect`, {
      token: tokens.accessToken,
      client_id: SEEDED_DASHBOARD_CLIENT.clientId,
    });
    expect(response.status).toBe(401);
    expect(response.body.error).toBe("invalid_client");
  });

  it("shows a foreign-bound token's aud as the sister site", async () => {
    sandbox.setKnobs({ foreignResources: ["https://sister.example.com"] });
    try {
      const tokens = await obtainTokens(sandbox, { resource: "https://sister.example.com" });
      const response = await postForm(`${sandbox.url}/api/oauth/introspect`, { token: tokens.accessToken, ...dashboardAuth });
      expect(response.body.aud).toBe("https://sister.example.com");
    } finally {
      sandbox.setKnobs({ foreignResources: [] });
    }
  });
});
