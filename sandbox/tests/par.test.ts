import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SEEDED_DASHBOARD_CLIENT } from "../seed";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { authorizeWithoutBrowser } from "../testing";
import { DASHBOARD_REDIRECT, exchangeCode, newPkce, postForm } from "./helpers";

/** The sandbox's pushed authorization requests (RFC 9126), behind the `par` knob. */
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.setKnobs({ par: "off" });
});

function pushed(overrides: Record<string, string | undefined> = {}) {
  const pkce = newPkce();
  const fields = {
    response_type: "code",
    client_id: SEEDED_DASHBOARD_CLIENT.clientId,
    client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
    redirect_uri: DASHBOARD_REDIRECT,
    scope: "openid profile email account:read",
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    state: "state-1",
    nonce: "nonce-1",
    resource: sandbox.url,
    ...overrides,
  };
  return { pkce, push: () => postForm(`${sandbox.url}/api/oauth/par`, fields) };
}

async function metadata(): Promise<Record<string, unknown>> {
  return (await (await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
}

describe("PAR (knob par)", () => {
  it("off: not advertised, and the endpoint answers 404", async () => {
    expect((await metadata()).pushed_authorization_request_endpoint).toBeUndefined();
    expect((await pushed().push()).status).toBe(404);
  });

  it("offered: a pushed request gets a one-time request URN, and the front channel carries only client_id and request_uri", async () => {
    sandbox.setKnobs({ par: "offered" });
    const meta = await metadata();
    expect(meta.pushed_authorization_request_endpoint).toBe(`${sandbox.url}/api/oauth/par`);
    expect(meta.require_pushed_authorization_requests).toBeUndefined();
    const { pkce, push } = pushed();
    const answer = await push();
    expect(answer.status).toBe(201);
    expect(String(answer.body.request_uri)).toMatch(/^urn:ietf:params:oauth:request_uri:[\w-]{43}$/);
    expect(answer.body.expires_in).toBe(60);
    const authorize = new URL("/oauth/authorize", sandbox.url);
    authorize.searchParams.set("client_id", SEEDED_DASHBOARD_CLIENT.clientId);
    authorize.searchParams.set("request_uri", String(answer.body.request_uri));
    const redirect = await authorizeWithoutBrowser(authorize.toString(), { email: "maya@example.com" });
    expect(redirect.searchParams.get("state")).toBe("state-1");
    const code = redirect.searchParams.get("code")!;
    const tokens = await exchangeCode(sandbox, {
      code,
      verifier: pkce.verifier,
      redirectUri: DASHBOARD_REDIRECT,
      state: "state-1",
      nonce: "nonce-1",
      location: redirect,
      clientId: SEEDED_DASHBOARD_CLIENT.clientId,
      secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
    });
    expect(tokens.status).toBe(200);
    // Used once.
    await expect(authorizeWithoutBrowser(authorize.toString(), { email: "maya@example.com" })).rejects.toThrow(
      /expired or was already used/,
    );
  });

  it("refuses a push without the client's secret, with a request_uri, or with invalid parameters", async () => {
    sandbox.setKnobs({ par: "offered" });
    expect((await pushed({ client_secret: "wrong" }).push()).status).toBe(401);
    expect((await pushed({ request_uri: "urn:x" }).push()).body.error).toBe("invalid_request");
    expect((await pushed({ code_challenge_method: "plain" }).push()).body.error).toBe("invalid_request");
    expect((await pushed({ resource: "https://evil.example" }).push()).body.error).toBe("invalid_target");
  });

  it("refuses a request_uri presented with another client_id", async () => {
    sandbox.setKnobs({ par: "offered" });
    const answer = await pushed().push();
    const authorize = new URL("/oauth/authorize", sandbox.url);
    authorize.searchParams.set("client_id", "someone-else");
    authorize.searchParams.set("request_uri", String(answer.body.request_uri));
    const page = await fetch(authorize);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("belongs to another application");
  });

  it("required: advertised as required, and a front-channel request is refused with invalid_request", async () => {
    sandbox.setKnobs({ par: "required" });
    expect((await metadata()).require_pushed_authorization_requests).toBe(true);
    const pkce = newPkce();
    const authorize = new URL("/oauth/authorize", sandbox.url);
    for (const [name, value] of Object.entries({
      response_type: "code",
      client_id: SEEDED_DASHBOARD_CLIENT.clientId,
      redirect_uri: DASHBOARD_REDIRECT,
      scope: "openid account:read",
      code_challenge: pkce.challenge,
      code_challenge_method: "S256",
      state: "s",
    }))
      authorize.searchParams.set(name, value);
    const answer = await fetch(authorize, { redirect: "manual" });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get("location")!);
    expect(location.searchParams.get("error")).toBe("invalid_request");
  });
});
