import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENDOR_INTEGRATIONS } from "../seed";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { authorizeWithoutBrowser } from "../testing";
import { authorizeUrl, newPkce, postForm } from "./helpers";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

async function register(
  body: unknown,
  contentType = "application/json",
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.url}/api/oauth/register`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

function vendor(name: string) {
  const found = VENDOR_INTEGRATIONS.find((integration) => integration.clientName === name);
  if (!found) throw new Error(`no vendor ${name}`);
  return found;
}

/**
 * Olivia signs in to a registered loopback client and its code is exchanged: the token endpoint's answer, and
 * where the site redirected.
 */
async function signInWithClient(siteUrl: string, clientId: string, redirectUri: string) {
  const { verifier, challenge } = newPkce();
  const location = await authorizeWithoutBrowser(
    authorizeUrl(siteUrl, {
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: "openid courses:read",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s",
    }),
    { email: "olivia@example.com" },
  );
  const code = location.searchParams.get("code");
  const tokens = await postForm(`${siteUrl}/api/oauth/token`, {
    grant_type: "authorization_code",
    code: code ?? "",
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: clientId,
  });
  return { location, code, tokens };
}

describe("registration, rule 1: vendor integrations", () => {
  it.each(["Claude", "ChatGPT", "Cursor"])("returns the fixed client_id of %s", async (name) => {
    const integration = vendor(name);
    const response = await register({ client_name: name });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.body).toEqual({
      client_id: integration.clientId,
      client_id_issued_at: integration.issuedAt,
      client_name: integration.clientName,
      redirect_uris: [...integration.redirectUris],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    });
  });

  it("matches the name case-insensitively, and the same client_id every time", async () => {
    const first = await register({ client_name: "  claude " });
    const second = await register({ client_name: "CLAUDE" });
    expect(first.body.client_id).toBe(vendor("Claude").clientId);
    expect(second.body.client_id).toBe(vendor("Claude").clientId);
  });

  it("accepts the integration's own HTTPS redirect URI (it was arranged with the operator)", async () => {
    const response = await register({ client_name: "ChatGPT", redirect_uris: [...vendor("ChatGPT").redirectUris] });
    expect(response.status).toBe(201);
    expect(response.body.client_id).toBe(vendor("ChatGPT").clientId);
  });

  it("refuses a vendor name with another fixed HTTPS redirect URI", async () => {
    const response = await register({ client_name: "Claude", redirect_uris: ["https://evil.example/callback"] });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("invalid_redirect_uri");
  });
});

describe("registration, rule 2: loopback clients", () => {
  it("registers a new public client for 127.0.0.1 redirect URIs (RFC 7591 response)", async () => {
    const response = await register({
      client_name: "My CLI",
      application_type: "native",
      redirect_uris: ["http://127.0.0.1:8765/callback"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      client_name: "My CLI",
      redirect_uris: ["http://127.0.0.1:8765/callback"],
      token_endpoint_auth_method: "none",
      application_type: "native",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    });
    expect(response.body.client_id).toMatch(/^loopback-/);
    expect(response.body).not.toHaveProperty("client_secret");
    expect(Math.abs(Number(response.body.client_id_issued_at) - Date.now() / 1000)).toBeLessThan(60);
    const again = await register({ client_name: "My CLI", redirect_uris: ["http://127.0.0.1:8765/callback"] });
    expect(again.body.client_id).not.toBe(response.body.client_id);
  });

  it("accepts [::1] and a loopback URI without a port; refuses localhost", async () => {
    expect((await register({ redirect_uris: ["http://[::1]:9000/cb", "http://127.0.0.1/cb"] })).status).toBe(201);
    const localhost = await register({ client_name: "Local", redirect_uris: ["http://localhost:9000/cb"] });
    expect(localhost.status).toBe(400);
    expect(localhost.body.error).toBe("invalid_redirect_uri");
    expect(String(localhost.body.error_description)).toContain("127.0.0.1");
  });

  it("refuses a confidential loopback client and a web application_type", async () => {
    const secret = await register({
      client_name: "X",
      redirect_uris: ["http://127.0.0.1:1/cb"],
      token_endpoint_auth_method: "client_secret_post",
    });
    expect(secret.body.error).toBe("invalid_client_metadata");
    const web = await register({ client_name: "X", redirect_uris: ["http://127.0.0.1:1/cb"], application_type: "web" });
    expect(web.body.error).toBe("invalid_client_metadata");
  });

  it("works with the authorization and token endpoints, on any loopback port (RFC 8252 section 7.3)", async () => {
    const registered = await register({ client_name: "Port-hopping CLI", redirect_uris: ["http://127.0.0.1:8765/callback"] });
    const clientId = String(registered.body.client_id);
    const { location, code, tokens } = await signInWithClient(sandbox.url, clientId, "http://127.0.0.1:51234/callback");
    expect(location.origin).toBe("http://127.0.0.1:51234");
    expect(code).not.toBeNull();
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe("openid courses:read");
  });
});

describe("registration past the loopback client limit", () => {
  it.each([1, 3])("refuses a new client past a limit of %i, and keeps the grants of the clients it has", async (limit) => {
    const small = await startSandbox({ port: 0, loopbackClientLimit: limit });
    try {
      const registerAt = async (name: string) => {
        const response = await fetch(`${small.url}/api/oauth/register`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ client_name: name, redirect_uris: ["http://127.0.0.1:8765/callback"] }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const first = await registerAt("First CLI");
      expect(first.status).toBe(201);
      const clientId = String(first.body.client_id);
      const { tokens } = await signInWithClient(small.url, clientId, "http://127.0.0.1:8765/callback");
      expect(tokens.status).toBe(200);
      for (let index = 1; index < limit; index += 1) expect((await registerAt(`CLI ${index}`)).status).toBe(201);

      const refused = await registerAt("One too many");
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe("access_denied");
      expect(String(refused.body.error_description)).toContain(`${limit} registered local applications`);
      // The first client and its member's grant are untouched.
      expect(small.state.clients.has(clientId)).toBe(true);
      const refreshed = await postForm(`${small.url}/api/oauth/token`, {
        grant_type: "refresh_token",
        refresh_token: String(tokens.body.refresh_token),
        client_id: clientId,
      });
      expect(refreshed.status).toBe(200);
    } finally {
      await small.close();
    }
  });
});

describe("registration, rule 4: precedence between a vendor name and loopback URIs", () => {
  it("gives a vendor name with loopback redirect URIs a new loopback client, never the vendor's client_id", async () => {
    const response = await register({ client_name: "Claude", redirect_uris: ["http://127.0.0.1:33418/callback"] });
    expect(response.status).toBe(201);
    expect(response.body.client_id).not.toBe(vendor("Claude").clientId);
    expect(response.body.client_id).toMatch(/^loopback-/);
    expect(response.body.redirect_uris).toEqual(["http://127.0.0.1:33418/callback"]);
    const client = sandbox.state.clients.get(String(response.body.client_id));
    expect(client?.kind).toBe("loopback");
  });

  it("marks such a client as unverified on the consent page", async () => {
    const response = await register({ client_name: "Claude", redirect_uris: ["http://127.0.0.1:33418/callback"] });
    const page = await (
      await fetch(
        authorizeUrl(sandbox.url, {
          response_type: "code",
          client_id: String(response.body.client_id),
          redirect_uri: "http://127.0.0.1:33418/callback",
          scope: "openid",
          code_challenge: newPkce().challenge,
          code_challenge_method: "S256",
        }),
      )
    ).text();
    expect(page).toContain("unverified application running on your own computer");
  });
});

describe("registration, rule 3 and refusals (RFC 7591 section 3.2.2)", () => {
  it("refuses a fixed HTTPS redirect URI with invalid_redirect_uri", async () => {
    const response = await register({ client_name: "Some web app", redirect_uris: ["https://app.example.com/callback"] });
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.body).toMatchObject({ error: "invalid_redirect_uri", error_uri: `${sandbox.url}/auth.md#errors` });
    expect(typeof response.body.error_description).toBe("string");
  });

  it("refuses a mix of loopback and HTTPS, custom schemes, fragments and non-URLs with invalid_redirect_uri", async () => {
    for (const uris of [
      ["http://127.0.0.1:1/cb", "https://app.example.com/cb"],
      ["myapp://callback"],
      ["http://127.0.0.1:1/cb#frag"],
      ["not a url"],
      ["http://192.168.1.10:8000/cb"],
    ]) {
      const response = await register({ client_name: "Thing", redirect_uris: uris });
      expect(response.status, uris.join(" ")).toBe(400);
      expect(response.body.error, uris.join(" ")).toBe("invalid_redirect_uri");
    }
  });

  it("refuses an unknown client_name without loopback URIs with invalid_client_metadata", async () => {
    for (const body of [{ client_name: "Unknown Agent" }, { client_name: "Unknown Agent", redirect_uris: [] }, {}]) {
      const response = await register(body);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe("invalid_client_metadata");
    }
  });

  it("refuses malformed bodies and metadata with invalid_client_metadata", async () => {
    const cases: [unknown, string?][] = [
      ["{", undefined],
      ["[]", undefined],
      ["null", undefined],
      [{ client_name: 42 }, undefined],
      [{ client_name: "Claude", grant_types: ["client_credentials"] }, undefined],
      [{ client_name: "Claude", response_types: ["token"] }, undefined],
      [{ client_name: "Claude" }, "application/x-www-form-urlencoded"],
      [{ client_name: "Claude", scope: "courses:read nonsense" }, undefined],
    ];
    for (const [body, contentType] of cases) {
      const response = await register(body, contentType);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error, JSON.stringify(body)).toBe("invalid_client_metadata");
    }
    const notArray = await register({ client_name: "X", redirect_uris: "http://127.0.0.1:1/cb" });
    expect(notArray.body.error).toBe("invalid_redirect_uri");
  });

  it("refuses account:* in the registration scope with invalid_scope (section 5.4)", async () => {
    const response = await register({ client_name: "My CLI", redirect_uris: ["http://127.0.0.1:1/cb"], scope: "openid account:read" });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("invalid_scope");
  });
});

describe("operator clients and account:read (section 5.4)", () => {
  async function registeredLoopback(): Promise<string> {
    const response = await register({ client_name: "Op CLI", redirect_uris: ["http://127.0.0.1:7000/cb"] });
    return String(response.body.client_id);
  }

  it.each([
    ["a loopback client", async () => ({ clientId: await registeredLoopback(), redirectUri: "http://127.0.0.1:7000/cb" })],
    [
      "a vendor client",
      () => Promise.resolve({ clientId: vendor("Claude").clientId, redirectUri: vendor("Claude").redirectUris[0] ?? "" }),
    ],
  ])("gives %s asking for account:read invalid_scope at the authorization endpoint", async (_label, make) => {
    const { clientId, redirectUri } = await make();
    const response = await fetch(
      authorizeUrl(sandbox.url, {
        response_type: "code",
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: "openid account:read",
        code_challenge: newPkce().challenge,
        code_challenge_method: "S256",
        state: "xyz",
      }),
      { redirect: "manual" },
    );
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.searchParams.get("error")).toBe("invalid_scope");
    expect(location.searchParams.get("state")).toBe("xyz");
    expect(location.searchParams.get("iss")).toBe(sandbox.url);
  });

  it("gives an operator client asking for account:read invalid_scope at the token endpoint", async () => {
    const clientId = await registeredLoopback();
    for (const grant of ["authorization_code", "refresh_token"]) {
      const response = await postForm(`${sandbox.url}/api/oauth/token`, {
        grant_type: grant,
        code: "whatever",
        refresh_token: "whatever",
        code_verifier: newPkce().verifier,
        redirect_uri: "http://127.0.0.1:7000/cb",
        client_id: clientId,
        scope: "account:read",
      });
      expect(response.status, grant).toBe(400);
      expect(response.body.error, grant).toBe("invalid_scope");
    }
  });
});
