import { createHash, randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import type { JWK } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { currentDpopNonce, DPOP_NONCE_PERIOD_MS } from "../dpop";
import { SEEDED_DASHBOARD_CLIENT } from "../seed";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { obtainCode, postForm, exchangeCode } from "./helpers";

/** The sandbox's DPoP (RFC 9449), behind the `dpop` and `dpopNonce` knobs: every negative case is refused. */
let sandbox: RunningSandbox;

interface Key {
  privateKey: CryptoKey;
  jwk: JWK;
}

async function newKey(): Promise<Key> {
  const pair = await generateKeyPair("ES256");
  return { privateKey: pair.privateKey, jwk: await exportJWK(pair.publicKey) };
}

interface ProofOptions {
  htm?: string;
  htu?: string;
  iat?: number;
  jti?: string;
  accessToken?: string;
  ath?: string;
  nonce?: string;
  typ?: string;
}

function proof(key: Key, method: string, path: string, options: ProofOptions = {}): Promise<string> {
  const payload: Record<string, unknown> = {
    htm: options.htm ?? method,
    htu: options.htu ?? `${sandbox.url}${path}`,
    iat: options.iat ?? Math.floor(Date.now() / 1000),
    jti: options.jti ?? randomBytes(16).toString("base64url"),
  };
  if (options.ath !== undefined) payload.ath = options.ath;
  else if (options.accessToken !== undefined) payload.ath = createHash("sha256").update(options.accessToken).digest("base64url");
  if (options.nonce !== undefined) payload.nonce = options.nonce;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "ES256", typ: options.typ ?? "dpop+jwt", jwk: options.typ === "none" ? undefined : key.jwk })
    .sign(key.privateKey);
}

async function boundTokens(key: Key): Promise<{ accessToken: string; refreshToken: string; tokenType: string }> {
  const code = await obtainCode(sandbox);
  const answer = await postForm(
    `${sandbox.url}/api/oauth/token`,
    {
      grant_type: "authorization_code",
      code: code.code,
      redirect_uri: code.redirectUri,
      code_verifier: code.verifier,
      client_id: code.clientId,
      client_secret: code.secret,
      resource: sandbox.url,
    },
    { dpop: await proof(key, "POST", "/api/oauth/token") },
  );
  expect(answer.status).toBe(200);
  return {
    accessToken: String(answer.body.access_token),
    refreshToken: String(answer.body.refresh_token),
    tokenType: String(answer.body.token_type),
  };
}

function refreshWith(refreshToken: string, headers: Record<string, string>) {
  return postForm(
    `${sandbox.url}/api/oauth/token`,
    {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: SEEDED_DASHBOARD_CLIENT.clientId,
      client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
    },
    headers,
  );
}

function userInfo(authorization: string, dpop?: string): Promise<Response> {
  return fetch(`${sandbox.url}/api/oauth/userinfo`, { headers: { authorization, ...(dpop ? { dpop } : {}) } });
}

function graphql(authorization: string, dpop?: string): Promise<Response> {
  return fetch(`${sandbox.url}/account/graphql`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json", ...(dpop ? { dpop } : {}) },
    body: JSON.stringify({ query: "query Probe { viewer { id } }" }),
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.setKnobs({ dpop: "off", dpopNonce: false, dpopRevocation: false, clockOffsetMs: 0 });
});

/**
 * Moves the sandbox's clock to one second into a nonce period, so that a test comparing the nonce it was
 * answered with the current one has 29 seconds before the nonce changes (a test that straddled the change
 * failed now and then); returns the offset.
 */
function alignToNoncePeriod(): number {
  const offset = DPOP_NONCE_PERIOD_MS - (Date.now() % DPOP_NONCE_PERIOD_MS) + 1_000;
  sandbox.setKnobs({ clockOffsetMs: offset });
  return offset;
}

describe("DPoP off (the default)", () => {
  it("is not advertised and issues Bearer tokens even to a client that sends a proof", async () => {
    const metadata = (await (await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.dpop_signing_alg_values_supported).toBeUndefined();
    expect((await boundTokens(await newKey())).tokenType).toBe("Bearer");
  });
});

describe("DPoP on", () => {
  it("advertises ES256, binds the tokens of a client with a proof, and serves them only with a proof of the key", async () => {
    sandbox.setKnobs({ dpop: "offered" });
    const metadata = (await (await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.dpop_signing_alg_values_supported).toEqual(["ES256"]);
    const key = await newKey();
    const tokens = await boundTokens(key);
    expect(tokens.tokenType).toBe("DPoP");
    const ok = await userInfo(
      `DPoP ${tokens.accessToken}`,
      await proof(key, "GET", "/api/oauth/userinfo", { accessToken: tokens.accessToken }),
    );
    expect(ok.status).toBe(200);
    const graph = await graphql(
      `DPoP ${tokens.accessToken}`,
      await proof(key, "POST", "/account/graphql", { accessToken: tokens.accessToken }),
    );
    expect(graph.status).toBe(200);
    const renewed = await refreshWith(tokens.refreshToken, { dpop: await proof(key, "POST", "/api/oauth/token") });
    expect(renewed.status).toBe(200);
    expect(renewed.body.token_type).toBe("DPoP");
  });

  it("required: refuses a token request without a proof", async () => {
    sandbox.setKnobs({ dpop: "required" });
    const code = await obtainCode(sandbox);
    const answer = await exchangeCode(sandbox, code);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_dpop_proof");
  });

  describe("refuses at the token endpoint", () => {
    it.each<[string, (key: Key, other: Key) => Promise<string>]>([
      ["another key than the grant's", (_key, other) => proof(other, "POST", "/api/oauth/token")],
      ["a wrong htu", (key) => proof(key, "POST", "/api/oauth/token", { htu: `${sandbox.url}/api/oauth/other` })],
      ["a wrong htm", (key) => proof(key, "POST", "/api/oauth/token", { htm: "GET" })],
      ["a stale iat", (key) => proof(key, "POST", "/api/oauth/token", { iat: Math.floor(Date.now() / 1000) - 600 })],
      ["a wrong typ", (key) => proof(key, "POST", "/api/oauth/token", { typ: "JWT" })],
    ])("a refresh with %s", async (_name, make) => {
      sandbox.setKnobs({ dpop: "offered" });
      const key = await newKey();
      const tokens = await boundTokens(key);
      const answer = await refreshWith(tokens.refreshToken, { dpop: await make(key, await newKey()) });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe("invalid_dpop_proof");
    });

    it("a replayed jti", async () => {
      sandbox.setKnobs({ dpop: "offered" });
      const key = await newKey();
      const tokens = await boundTokens(key);
      const once = await proof(key, "POST", "/api/oauth/token");
      expect((await refreshWith(tokens.refreshToken, { dpop: once })).status).toBe(200);
      const replay = await refreshWith(tokens.refreshToken, { dpop: once });
      expect(replay.body.error).toBe("invalid_dpop_proof");
    });

    it("a code bound with dpop_jkt, exchanged with another key", async () => {
      sandbox.setKnobs({ dpop: "offered" });
      // obtainCode sends no dpop_jkt: bind through PAR-less authorize with the parameter added by hand.
      const key = await newKey();
      const other = await newKey();
      const { calculateJwkThumbprint } = await import("jose");
      const jkt = await calculateJwkThumbprint(key.jwk, "sha256");
      const { authorizeUrl, newPkce } = await import("./helpers");
      const { authorizeWithoutBrowser } = await import("../testing");
      const pkce = newPkce();
      const location = await authorizeWithoutBrowser(
        authorizeUrl(sandbox.url, {
          response_type: "code",
          client_id: SEEDED_DASHBOARD_CLIENT.clientId,
          redirect_uri: "http://localhost:3000/api/auth/callback",
          scope: "openid account:read",
          code_challenge: pkce.challenge,
          code_challenge_method: "S256",
          state: "s",
          dpop_jkt: jkt,
        }),
        { email: "maya@example.com" },
      );
      const answer = await postForm(
        `${sandbox.url}/api/oauth/token`,
        {
          grant_type: "authorization_code",
          code: location.searchParams.get("code")!,
          redirect_uri: "http://localhost:3000/api/auth/callback",
          code_verifier: pkce.verifier,
          client_id: SEEDED_DASHBOARD_CLIENT.clientId,
          client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
        },
        { dpop: await proof(other, "POST", "/api/oauth/token") },
      );
      expect(answer.body.error).toBe("invalid_dpop_proof");
    });
  });

  describe("refuses at UserInfo and the Account API (401 with a DPoP challenge)", () => {
    it.each<[string, (key: Key, other: Key, token: string, path: string, method: string) => Promise<string | undefined>]>([
      ["no proof", () => Promise.resolve(undefined)],
      ["another key", (_key, other, token, path, method) => proof(other, method, path, { accessToken: token })],
      ["a wrong htu", (key, _other, token, _path, method) => proof(key, method, "/elsewhere", { accessToken: token })],
      ["a wrong htm", (key, _other, token, path) => proof(key, "PUT", path, { accessToken: token })],
      [
        "a stale iat",
        (key, _o, token, path, method) => proof(key, method, path, { accessToken: token, iat: Math.floor(Date.now() / 1000) - 600 }),
      ],
      ["a missing ath", (key, _other, _token, path, method) => proof(key, method, path)],
      ["a wrong ath", (key, _other, _token, path, method) => proof(key, method, path, { ath: "x".repeat(43) })],
    ])("%s", async (_name, make) => {
      sandbox.setKnobs({ dpop: "offered" });
      const key = await newKey();
      const other = await newKey();
      const tokens = await boundTokens(key);
      const info = await userInfo(`DPoP ${tokens.accessToken}`, await make(key, other, tokens.accessToken, "/api/oauth/userinfo", "GET"));
      expect(info.status).toBe(401);
      expect(info.headers.get("www-authenticate")).toMatch(/^DPoP error="(invalid_token|invalid_dpop_proof)"/);
      const graph = await graphql(`DPoP ${tokens.accessToken}`, await make(key, other, tokens.accessToken, "/account/graphql", "POST"));
      expect(graph.status).toBe(401);
    });

    it("a replayed proof, and a bound token sent as Bearer", async () => {
      sandbox.setKnobs({ dpop: "offered" });
      const key = await newKey();
      const tokens = await boundTokens(key);
      const once = await proof(key, "GET", "/api/oauth/userinfo", { accessToken: tokens.accessToken });
      expect((await userInfo(`DPoP ${tokens.accessToken}`, once)).status).toBe(200);
      expect((await userInfo(`DPoP ${tokens.accessToken}`, once)).status).toBe(401);
      const bearer = await userInfo(`Bearer ${tokens.accessToken}`);
      expect(bearer.status).toBe(401);
      expect(bearer.headers.get("www-authenticate")).toMatch(/^DPoP error="invalid_token"/);
    });

    it("at MCP too: another key gets 401", async () => {
      sandbox.setKnobs({ dpop: "offered" });
      sandbox.setMcpConnectionsBeta(true);
      const key = await newKey();
      const tokens = await boundTokens(key);
      const answer = await fetch(`${sandbox.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `DPoP ${tokens.accessToken}`,
          dpop: await proof(await newKey(), "POST", "/mcp", { accessToken: tokens.accessToken }),
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(answer.status).toBe(401);
    });
  });

  describe("the nonce (dpopNonce)", () => {
    it("asks for it with use_dpop_nonce and DPoP-Nonce, accepts the current one, and changes it every 30 seconds", async () => {
      sandbox.setKnobs({ dpop: "offered", dpopNonce: true });
      const offset = alignToNoncePeriod();
      const key = await newKey();
      const code = await obtainCode(sandbox);
      const form = {
        grant_type: "authorization_code",
        code: code.code,
        redirect_uri: code.redirectUri,
        code_verifier: code.verifier,
        client_id: code.clientId,
        client_secret: code.secret,
        resource: sandbox.url,
      };
      const first = await postForm(`${sandbox.url}/api/oauth/token`, form, { dpop: await proof(key, "POST", "/api/oauth/token") });
      expect(first.status).toBe(400);
      expect(first.body.error).toBe("use_dpop_nonce");
      const nonce = first.headers.get("dpop-nonce")!;
      expect(nonce).toBe(currentDpopNonce(sandbox.state));
      const second = await postForm(`${sandbox.url}/api/oauth/token`, form, {
        dpop: await proof(key, "POST", "/api/oauth/token", { nonce }),
      });
      expect(second.status).toBe(200);
      const accessToken = String(second.body.access_token);
      const missing = await userInfo(`DPoP ${accessToken}`, await proof(key, "GET", "/api/oauth/userinfo", { accessToken }));
      expect(missing.status).toBe(401);
      expect(missing.headers.get("www-authenticate")).toMatch(/^DPoP error="use_dpop_nonce"/);
      sandbox.setKnobs({ clockOffsetMs: offset + 31_000 });
      expect(currentDpopNonce(sandbox.state)).not.toBe(nonce);
      const stale = await userInfo(
        `DPoP ${accessToken}`,
        await proof(key, "GET", "/api/oauth/userinfo", { accessToken, nonce, iat: Math.floor((Date.now() + offset + 31_000) / 1000) }),
      );
      expect(stale.status).toBe(401);
      expect(stale.headers.get("dpop-nonce")).toBe(currentDpopNonce(sandbox.state));
    });
  });
});

function revoke(token: string, hint: string, headers: Record<string, string> = {}) {
  return postForm(
    `${sandbox.url}/api/oauth/revoke`,
    {
      token,
      token_type_hint: hint,
      client_id: SEEDED_DASHBOARD_CLIENT.clientId,
      client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
    },
    headers,
  );
}

describe("revocation with dpopRevocation (a site that requires a proof to revoke a DPoP-bound token)", () => {
  const REVOKE = "/api/oauth/revoke";

  it.each<[string, (key: Key, other: Key) => Promise<string | undefined>]>([
    ["no proof", () => Promise.resolve(undefined)],
    ["another key than the token's", (_key, other) => proof(other, "POST", REVOKE)],
    ["a wrong htu (the token endpoint's)", (key) => proof(key, "POST", "/api/oauth/token")],
    ["a wrong htm", (key) => proof(key, "GET", REVOKE)],
    ["a stale iat", (key) => proof(key, "POST", REVOKE, { iat: Math.floor(Date.now() / 1000) - 600 })],
    ["a wrong typ", (key) => proof(key, "POST", REVOKE, { typ: "JWT" })],
  ])("refuses %s with invalid_dpop_proof and revokes nothing", async (_name, make) => {
    sandbox.setKnobs({ dpop: "offered", dpopRevocation: true });
    const key = await newKey();
    const tokens = await boundTokens(key);
    const dpop = await make(key, await newKey());
    const refresh = await revoke(tokens.refreshToken, "refresh_token", dpop === undefined ? {} : { dpop });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe("invalid_dpop_proof");
    const access = await revoke(tokens.accessToken, "access_token", dpop === undefined ? {} : { dpop });
    expect(access.status).toBe(400);
    // Nothing was revoked: the grant still refreshes.
    expect((await refreshWith(tokens.refreshToken, { dpop: await proof(key, "POST", "/api/oauth/token") })).status).toBe(200);
  });

  it("refuses a replayed proof", async () => {
    sandbox.setKnobs({ dpop: "offered", dpopRevocation: true });
    const key = await newKey();
    const tokens = await boundTokens(key);
    const once = await proof(key, "POST", REVOKE);
    expect((await revoke(tokens.accessToken, "access_token", { dpop: once })).status).toBe(200);
    const replay = await revoke(tokens.refreshToken, "refresh_token", { dpop: once });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_dpop_proof");
  });

  it("asks for the nonce with use_dpop_nonce, then revokes the grant with a proof that carries it", async () => {
    sandbox.setKnobs({ dpop: "offered" });
    const key = await newKey();
    const tokens = await boundTokens(key);
    sandbox.setKnobs({ dpopNonce: true, dpopRevocation: true });
    alignToNoncePeriod();
    const first = await revoke(tokens.refreshToken, "refresh_token", { dpop: await proof(key, "POST", REVOKE) });
    expect(first.status).toBe(400);
    expect(first.body.error).toBe("use_dpop_nonce");
    const nonce = first.headers.get("dpop-nonce")!;
    expect(nonce).toBe(currentDpopNonce(sandbox.state));
    const second = await revoke(tokens.refreshToken, "refresh_token", { dpop: await proof(key, "POST", REVOKE, { nonce }) });
    expect(second.status).toBe(200);
    const after = await refreshWith(tokens.refreshToken, { dpop: await proof(key, "POST", "/api/oauth/token", { nonce }) });
    expect(after.status).toBe(400);
    expect(after.body.error).toBe("invalid_grant");
  });

  it("revokes Bearer tokens and unknown tokens without a proof; with the knob off, bound tokens too", async () => {
    sandbox.setKnobs({ dpop: "offered", dpopRevocation: true });
    const code = await obtainCode(sandbox);
    const bearer = await exchangeCode(sandbox, code);
    expect(bearer.body.token_type).toBe("Bearer");
    expect((await revoke(String(bearer.body.refresh_token), "refresh_token")).status).toBe(200);
    expect((await revoke("not-a-token", "refresh_token")).status).toBe(200);
    sandbox.setKnobs({ dpopRevocation: false });
    const tokens = await boundTokens(await newKey());
    expect((await revoke(tokens.refreshToken, "refresh_token")).status).toBe(200);
    expect(sandbox.state.store.refreshTokens.get(tokens.refreshToken)?.status).toBe("revoked");
  });
});
