import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../seed";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { obtainTokens } from "./helpers";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

async function getJson(path: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.url}${path}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return (await response.json()) as Record<string, unknown>;
}

describe("discovery", () => {
  it("uses the actual port in the issuer when started on port 0", () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.url).not.toBe("http://127.0.0.1:0");
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
  });

  it("serves RFC 8414 authorization-server metadata with every required field", async () => {
    const metadata = await getJson("/.well-known/oauth-authorization-server");
    const origin = sandbox.url;
    expect(metadata).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/api/oauth/token`,
      userinfo_endpoint: `${origin}/api/oauth/userinfo`,
      revocation_endpoint: `${origin}/api/oauth/revoke`,
      introspection_endpoint: `${origin}/api/oauth/introspect`,
      registration_endpoint: `${origin}/api/oauth/register`,
      grant_types_supported: ["authorization_code", "refresh_token"],
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_post"],
      authorization_response_iss_parameter_supported: true,
      id_token_signing_alg_values_supported: ["ES256"],
      jwks_uri: `${origin}/.well-known/jwks.json`,
    });
    expect(String(metadata.issuer).endsWith("/")).toBe(false);
    expect(metadata.scopes_supported).toEqual(ALL_SCOPES);
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(["account:read", "account:write", "openid", "storage:write", "forms:read"]),
    );
    expect(metadata.revocation_endpoint_auth_methods_supported).toEqual(["none", "client_secret_post"]);
    expect(metadata.introspection_endpoint_auth_methods_supported).toEqual(["none", "client_secret_post"]);
  });

  it("serves OpenID configuration with the same endpoints plus subject types and claims", async () => {
    const asMetadata = await getJson("/.well-known/oauth-authorization-server");
    const oidc = await getJson("/.well-known/openid-configuration");
    expect(oidc).toMatchObject(asMetadata);
    expect(oidc.subject_types_supported).toEqual(["public"]);
    expect(oidc.claims_supported).toEqual(expect.arrayContaining(["sub", "email", "email_verified", "name", "org_id", "roles"]));
  });

  it("serves RFC 9728 protected-resource metadata", async () => {
    const metadata = await getJson("/.well-known/oauth-protected-resource");
    expect(metadata).toMatchObject({
      resource: sandbox.url,
      authorization_servers: [sandbox.url],
      bearer_methods_supported: ["header"],
    });
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(["account:read"]));
  });

  it("publishes an ES256 P-256 public key with a kid and no private part", async () => {
    const jwks = (await getJson("/.well-known/jwks.json")) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(1);
    const key = jwks.keys[0];
    expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect(typeof key?.kid).toBe("string");
    expect(key?.d).toBeUndefined();
  });

  it("advertises Client ID Metadata Document support", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      expect((await getJson(path)).client_id_metadata_document_supported).toBe(true);
    }
  });

  it("answers the registration endpoint with an RFC 7591 error, not a 404", async () => {
    const response = await fetch(`${sandbox.url}/api/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Anything" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_client_metadata" });
  });
});

describe("id_token off mode", () => {
  let off: RunningSandbox;
  beforeAll(async () => {
    off = await startSandbox({ port: 0, knobs: { idToken: false } });
  });
  afterAll(async () => {
    await off.close();
  });

  it("omits jwks_uri and the alg list from discovery", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
      const metadata = (await (await fetch(`${off.url}${path}`)).json()) as Record<string, unknown>;
      expect(metadata).not.toHaveProperty("jwks_uri");
      expect(metadata).not.toHaveProperty("id_token_signing_alg_values_supported");
      expect(metadata.issuer).toBe(off.url);
    }
  });

  it("issues no id_token even with openid granted", async () => {
    const tokens = await obtainTokens(off, { scope: "openid profile email account:read" });
    expect(tokens.body.scope).toContain("openid");
    expect(tokens.body).not.toHaveProperty("id_token");
  });

  it("switches back on at runtime", async () => {
    off.setKnobs({ idToken: true });
    const metadata = (await (await fetch(`${off.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.jwks_uri).toBe(`${off.url}/.well-known/jwks.json`);
    const tokens = await obtainTokens(off);
    expect(typeof tokens.body.id_token).toBe("string");
    off.setKnobs({ idToken: false });
  });
});
