import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEEDED_DASHBOARD_CLIENT } from "../seed";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { exchangeCode, newPkce, obtainCode, obtainTokens, postForm, refreshTokens, userinfo } from "./helpers";

let sandbox: RunningSandbox;
let clockOffset = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => Date.now() + clockOffset });
});
afterAll(async () => {
  await sandbox.close();
});

function expectOAuthError(response: { status: number; body: Record<string, unknown>; headers: Headers }, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.body.error).toBe(error);
  expect(typeof response.body.error_description).toBe("string");
  expect(response.body.error_uri).toBe(`${sandbox.url}/auth.md#errors`);
  expect(response.headers.get("cache-control")).toBe("no-store");
}

describe("authorization_code grant", () => {
  it("issues tokens with the platform's extra fields and no-store headers", async () => {
    const code = await obtainCode(sandbox);
    const response = await exchangeCode(sandbox, code);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("pragma")).toBe("no-cache");
    expect(response.body).toMatchObject({
      token_type: "Bearer",
      expires_in: 7200,
      scope: "openid profile email account:read",
      school_id: "school_4f2a",
      school_subdomain: "demo-academy",
    });
    expect(typeof response.body.access_token).toBe("string");
    expect(typeof response.body.refresh_token).toBe("string");
    expect(Math.abs(Number(response.body.created_at) - Date.now() / 1000)).toBeLessThan(5);
  });

  it("refuses a wrong code_verifier", async () => {
    const code = await obtainCode(sandbox);
    expectOAuthError(await exchangeCode(sandbox, code, { code_verifier: newPkce().verifier }), 400, "invalid_grant");
  });

  it("refuses a missing code_verifier", async () => {
    const code = await obtainCode(sandbox);
    expectOAuthError(await exchangeCode(sandbox, code, { code_verifier: undefined }), 400, "invalid_request");
  });

  it("refuses a reused code and revokes the tokens issued from it", async () => {
    const code = await obtainCode(sandbox);
    const first = await exchangeCode(sandbox, code);
    expect(first.status).toBe(200);
    expect((await userinfo(sandbox, String(first.body.access_token))).status).toBe(200);
    expectOAuthError(await exchangeCode(sandbox, code), 400, "invalid_grant");
    expect((await userinfo(sandbox, String(first.body.access_token))).status).toBe(401);
    expectOAuthError(await refreshTokens(sandbox, String(first.body.refresh_token)), 400, "invalid_grant");
  });

  it("refuses a code older than 60 seconds", async () => {
    const code = await obtainCode(sandbox);
    clockOffset = 61_000;
    try {
      expectOAuthError(await exchangeCode(sandbox, code), 400, "invalid_grant");
    } finally {
      clockOffset = 0;
    }
  });

  it("accepts a code 59 seconds old", async () => {
    const code = await obtainCode(sandbox);
    clockOffset = 59_000;
    try {
      expect((await exchangeCode(sandbox, code)).status).toBe(200);
    } finally {
      clockOffset = 0;
    }
  });

  it("refuses a wrong client secret with 401 invalid_client", async () => {
    const code = await obtainCode(sandbox);
    expectOAuthError(await exchangeCode(sandbox, code, { client_secret: "wrong" }), 401, "invalid_client");
    // The code survives a failed client authentication.
    expect((await exchangeCode(sandbox, code)).status).toBe(200);
  });

  it("refuses a missing client secret with 401 invalid_client", async () => {
    const code = await obtainCode(sandbox);
    expectOAuthError(await exchangeCode(sandbox, code, { client_secret: undefined }), 401, "invalid_client");
  });

  it("refuses HTTP Basic client authentication", async () => {
    const code = await obtainCode(sandbox);
    const basic = Buffer.from(`${SEEDED_DASHBOARD_CLIENT.clientId}:${SEEDED_DASHBOARD_CLIENT.clientSecret}`).toString("base64");
    const response = await postForm(
      `${sandbox.url}/api/oauth/token`,
      {
        grant_type: "authorization_code",
        code: code.code,
        redirect_uri: code.redirectUri,
        code_verifier: code.verifier,
        resource: sandbox.url,
      },
      { authorization: `Basic ${basic}` },
    );
    expectOAuthError(response, 401, "invalid_client");
  });

  it("refuses a code issued to another client", async () => {
    const code = await obtainCode(sandbox, { client: "public" });
    expectOAuthError(
      await exchangeCode(sandbox, code, {
        client_id: SEEDED_DASHBOARD_CLIENT.clientId,
        client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
      }),
      400,
      "invalid_grant",
    );
  });

  it("authenticates a public client with client_id only, and refuses a secret from it", async () => {
    const code = await obtainCode(sandbox, { client: "public" });
    expectOAuthError(await exchangeCode(sandbox, code, { client_secret: "anything" }), 401, "invalid_client");
    const code2 = await obtainCode(sandbox, { client: "public" });
    expect((await exchangeCode(sandbox, code2)).status).toBe(200);
  });

  it("refuses a mismatched redirect_uri", async () => {
    const code = await obtainCode(sandbox);
    expectOAuthError(await exchangeCode(sandbox, code, { redirect_uri: "http://localhost:3000/other" }), 400, "invalid_grant");
  });

  it("refuses a resource missing at the token endpoint when it was sent at authorize", async () => {
    const code = await obtainCode(sandbox);
    expectOAuthError(await exchangeCode(sandbox, code, { resource: undefined }), 400, "invalid_target");
  });

  it("refuses a mismatched resource", async () => {
    const code = await obtainCode(sandbox);
    expectOAuthError(await exchangeCode(sandbox, code, { resource: "https://elsewhere.example.com" }), 400, "invalid_target");
  });

  it("refuses a resource at the token endpoint that was not sent at authorize", async () => {
    const code = await obtainCode(sandbox, { resource: null });
    expectOAuthError(await exchangeCode(sandbox, code, { resource: sandbox.url }), 400, "invalid_target");
  });

  it("refuses a form-less request, a JSON body and a missing grant_type with invalid_request", async () => {
    const json = await fetch(`${sandbox.url}/api/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code" }),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: "invalid_request" });
    expectOAuthError(
      await postForm(`${sandbox.url}/api/oauth/token`, {
        client_id: SEEDED_DASHBOARD_CLIENT.clientId,
        client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
      }),
      400,
      "invalid_request",
    );
  });

  it("refuses an unsupported grant type", async () => {
    expectOAuthError(
      await postForm(`${sandbox.url}/api/oauth/token`, {
        grant_type: "client_credentials",
        client_id: SEEDED_DASHBOARD_CLIENT.clientId,
        client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
      }),
      400,
      "unsupported_grant_type",
    );
  });
});

describe("refresh_token grant", () => {
  it("rotates: a new refresh token each time, the old one revoked at once", async () => {
    const tokens = await obtainTokens(sandbox);
    const first = await refreshTokens(sandbox, tokens.refreshToken);
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(tokens.refreshToken);
    expect(first.body.access_token).not.toBe(tokens.accessToken);
    expect(first.body).toMatchObject({ token_type: "Bearer", expires_in: 7200, school_subdomain: "demo-academy" });
    const second = await refreshTokens(sandbox, String(first.body.refresh_token));
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
  });

  it("carries no id_token", async () => {
    const tokens = await obtainTokens(sandbox);
    expect(tokens.idToken).toBeDefined();
    const refreshed = await refreshTokens(sandbox, tokens.refreshToken);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).not.toHaveProperty("id_token");
  });

  it("replaying a rotated-out refresh token gives invalid_grant and revokes the whole grant", async () => {
    const tokens = await obtainTokens(sandbox);
    const rotated = await refreshTokens(sandbox, tokens.refreshToken);
    expect(rotated.status).toBe(200);
    const newestAccess = String(rotated.body.access_token);
    const newestRefresh = String(rotated.body.refresh_token);
    expect((await userinfo(sandbox, newestAccess)).status).toBe(200);

    expectOAuthError(await refreshTokens(sandbox, tokens.refreshToken), 400, "invalid_grant");

    expect((await userinfo(sandbox, newestAccess)).status).toBe(401);
    expect((await userinfo(sandbox, tokens.accessToken)).status).toBe(401);
    expectOAuthError(await refreshTokens(sandbox, newestRefresh), 400, "invalid_grant");
  });

  it("does not affect other grants of the same member", async () => {
    const a = await obtainTokens(sandbox);
    const b = await obtainTokens(sandbox);
    await refreshTokens(sandbox, a.refreshToken);
    await refreshTokens(sandbox, a.refreshToken);
    expect((await userinfo(sandbox, b.accessToken)).status).toBe(200);
  });

  it("refuses an unknown refresh token, a wrong secret and another client's token", async () => {
    const tokens = await obtainTokens(sandbox);
    expectOAuthError(await refreshTokens(sandbox, "srt_unknown"), 400, "invalid_grant");
    expectOAuthError(await refreshTokens(sandbox, tokens.refreshToken, { client_secret: "wrong" }), 401, "invalid_client");
    expectOAuthError(await refreshTokens(sandbox, tokens.refreshToken, { client_secret: undefined }), 401, "invalid_client");
    expectOAuthError(
      await refreshTokens(sandbox, tokens.refreshToken, { client_id: "companion-public", client_secret: undefined }),
      400,
      "invalid_grant",
    );
    // None of those consumed the token.
    expect((await refreshTokens(sandbox, tokens.refreshToken)).status).toBe(200);
  });

  it("narrows scope but never widens it", async () => {
    const tokens = await obtainTokens(sandbox, { scope: "openid account:read" });
    expectOAuthError(
      await refreshTokens(sandbox, tokens.refreshToken, { scope: "openid account:read account:write" }),
      400,
      "invalid_scope",
    );
    const narrowed = await refreshTokens(sandbox, tokens.refreshToken, { scope: "openid" });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe("openid");
  });

  it("checks resource: the origin is accepted, anything else is invalid_target", async () => {
    const tokens = await obtainTokens(sandbox);
    expectOAuthError(
      await refreshTokens(sandbox, tokens.refreshToken, { resource: "https://elsewhere.example.com" }),
      400,
      "invalid_target",
    );
    expect((await refreshTokens(sandbox, tokens.refreshToken, { resource: sandbox.url })).status).toBe(200);
  });

  it("refuses an expired refresh token", async () => {
    const short = await startSandbox({ port: 0, knobs: { refreshTokenTtlSeconds: 30 } });
    try {
      const tokens = await obtainTokens(short);
      short.setKnobs({ clockOffsetMs: 31_000 });
      const response = await refreshTokens(short, tokens.refreshToken);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe("invalid_grant");
    } finally {
      await short.close();
    }
  });
});

describe("id_token", () => {
  it("is ES256 with a kid, verifies against the JWKS and carries the UserInfo claims and nonce", async () => {
    const tokens = await obtainTokens(sandbox, { nonce: "nonce-xyz", email: "olivia@example.com" });
    const idToken = tokens.idToken ?? "";
    const header = decodeProtectedHeader(idToken);
    expect(header.alg).toBe("ES256");
    expect(typeof header.kid).toBe("string");
    const jwks = createRemoteJWKSet(new URL(`${sandbox.url}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(idToken, jwks, {
      issuer: sandbox.url,
      audience: SEEDED_DASHBOARD_CLIENT.clientId,
      algorithms: ["ES256"],
    });
    expect(payload.nonce).toBe("nonce-xyz");
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(600);
    expect(Math.abs((payload.iat ?? 0) - Date.now() / 1000)).toBeLessThan(5);
    const claims = (await userinfo(sandbox, tokens.accessToken)).body;
    expect(payload).toMatchObject({
      sub: claims.sub,
      email: claims.email,
      name: claims.name,
      org_id: claims.org_id,
      roles: claims.roles,
    });
    expect(payload.roles).toEqual(["owner", "admin", "student"]);
  });

  it("is not issued without the openid scope", async () => {
    const tokens = await obtainTokens(sandbox, { scope: "account:read" });
    expect(tokens.body).not.toHaveProperty("id_token");
  });

  it("omits nonce when none was sent", async () => {
    const tokens = await obtainTokens(sandbox, { nonce: null });
    const jwks = createRemoteJWKSet(new URL(`${sandbox.url}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(tokens.idToken ?? "", jwks, { issuer: sandbox.url, audience: SEEDED_DASHBOARD_CLIENT.clientId });
    expect(payload).not.toHaveProperty("nonce");
  });
});
