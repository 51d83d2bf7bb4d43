import { decodeJwt } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { postSandboxControl } from "../testing";
import { obtainTokens, refreshTokens } from "./helpers";

/** The knobs of issue 30 item 0: what a second, independent OpenID provider does differently. */
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, control: true });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.setKnobs({ refreshRefusalWithoutBody: false, partialConsent: false, openIdDiscoveryOnly: false });
});

describe("refreshRefusalWithoutBody", () => {
  it("answers a refused refresh with 400 and an empty body; off, with the JSON error", async () => {
    const tokens = await obtainTokens(sandbox);
    const withdrawn = await postSandboxControl(sandbox.url, "/__sandbox/withdraw-access", { email: "maya@example.com" });
    expect(await withdrawn.json()).toMatchObject({ withdrawn: expect.any(Number) as number });
    const json = await refreshTokens(sandbox, tokens.refreshToken);
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: "invalid_grant" });
    sandbox.setKnobs({ refreshRefusalWithoutBody: true });
    const bare = await refreshTokens(sandbox, tokens.refreshToken);
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({});
  });

  it("withdraw-access refuses a name that is not a demo member", async () => {
    const response = await postSandboxControl(sandbox.url, "/__sandbox/withdraw-access", { email: "nobody@example.com" });
    expect(response.status).toBe(400);
  });
});

describe("partialConsent", () => {
  it("grants only the ticked scopes, and the claims follow them (no email without the email scope)", async () => {
    sandbox.setKnobs({ partialConsent: true });
    const tokens = await obtainTokens(sandbox, { grantScopes: ["openid", "profile", "account:read"] });
    expect(tokens.body.scope).toBe("openid profile account:read");
    const claims = decodeJwt(tokens.idToken!);
    expect(claims.email).toBeUndefined();
    expect(claims.name).toBeTypeOf("string");
    const info = (await (
      await fetch(`${sandbox.url}/api/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.accessToken}` } })
    ).json()) as Record<string, unknown>;
    expect(info.email).toBeUndefined();
    expect(info.sub).toBe(claims.sub);
  });

  it("grants every scope as the page ticks them by default; off, the page has no checkboxes", async () => {
    sandbox.setKnobs({ partialConsent: true });
    expect((await obtainTokens(sandbox)).body.scope).toBe("openid profile email account:read");
    sandbox.setKnobs({ partialConsent: false });
    expect((await obtainTokens(sandbox, { grantScopes: ["openid"] })).body.scope).toBe("openid profile email account:read");
  });
});

describe("openIdDiscoveryOnly", () => {
  it("answers 404 for the RFC 8414 document and keeps the OpenID configuration", async () => {
    sandbox.setKnobs({ openIdDiscoveryOnly: true });
    expect((await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).status).toBe(404);
    const openid = (await (await fetch(`${sandbox.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(openid.issuer).toBe(sandbox.url);
    sandbox.setKnobs({ openIdDiscoveryOnly: false });
    expect((await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).status).toBe(200);
  });
});
