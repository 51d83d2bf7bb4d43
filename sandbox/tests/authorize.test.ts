import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { authorizeWithoutBrowser } from "../testing";
import { authorizeUrl, clientFor, newPkce } from "./helpers";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

function validParams(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const client = clientFor("public");
  return {
    response_type: "code",
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: "openid account:read",
    code_challenge: newPkce().challenge,
    code_challenge_method: "S256",
    state: "st-123",
    nonce: "n-456",
    resource: sandbox.url,
    ...overrides,
  };
}

async function get(params: Record<string, string | undefined>): Promise<Response> {
  return fetch(authorizeUrl(sandbox.url, params), { redirect: "manual" });
}

/** Expects a redirect to the client's redirect_uri carrying error, state and iss. */
async function expectErrorRedirect(params: Record<string, string | undefined>, error: string): Promise<URL> {
  const response = await get(params);
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get("location") ?? "");
  expect(`${location.origin}${location.pathname}`).toBe(params.redirect_uri);
  expect(location.searchParams.get("error")).toBe(error);
  expect(location.searchParams.get("error_description")).toBeTruthy();
  expect(location.searchParams.get("state")).toBe(params.state ?? null);
  expect(location.searchParams.get("iss")).toBe(sandbox.url);
  expect(location.searchParams.has("code")).toBe(false);
  return location;
}

async function expectErrorPage(params: Record<string, string | undefined>): Promise<string> {
  const response = await get(params);
  expect(response.status).toBe(400);
  expect(response.headers.get("location")).toBeNull();
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  return response.text();
}

/** Opens the authorization page and signs in by hand; returns the form's ids and both sandbox cookies. */
async function signInByHand(
  email: string,
): Promise<{ fields: { request_id: string; csrf_token: string }; browserCookie: string; signIn: Response; cookie: string }> {
  const first = await get(validParams());
  const browserCookie =
    first.headers
      .getSetCookie()
      .find((c) => c.startsWith("sandbox_browser="))
      ?.split(";")[0] ?? "";
  const page = await first.text();
  const fields = {
    request_id: /name="request_id" value="([^"]+)"/.exec(page)?.[1] ?? "",
    csrf_token: /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? "",
  };
  const signIn = await fetch(`${sandbox.url}/oauth/authorize/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: browserCookie },
    body: new URLSearchParams({ ...fields, email, password: "demo" }),
  });
  const sessionCookie =
    signIn.headers
      .getSetCookie()
      .find((c) => c.startsWith("sandbox_session="))
      ?.split(";")[0] ?? "";
  return { fields, browserCookie, signIn, cookie: `${browserCookie}; ${sessionCookie}` };
}

describe("authorization endpoint: refusals", () => {
  it("shows an error page, never a redirect, for an unknown client", async () => {
    const page = await expectErrorPage(validParams({ client_id: "no-such-client" }));
    expect(page).toContain("not registered");
  });

  it("shows an error page for a missing client_id", async () => {
    await expectErrorPage(validParams({ client_id: undefined }));
  });

  it("shows an error page for an unregistered redirect_uri", async () => {
    const page = await expectErrorPage(validParams({ redirect_uri: "http://127.0.0.1:8976/evil" }));
    expect(page).toContain("redirect_uri");
  });

  it("requires an exact redirect_uri match (no prefix or trailing-slash tolerance)", async () => {
    await expectErrorPage(validParams({ redirect_uri: "http://127.0.0.1:8976/callback/" }));
    await expectErrorPage(validParams({ redirect_uri: "http://127.0.0.1:8976/callback?x=1" }));
  });

  it("shows an error page for a missing redirect_uri", async () => {
    await expectErrorPage(validParams({ redirect_uri: undefined }));
  });

  it("escapes what it echoes on the error page", async () => {
    const response = await get(validParams({ client_id: "<script>alert(1)</script>" }));
    const page = await response.text();
    expect(page).not.toContain("<script>alert(1)</script>");
  });

  it("refuses a missing code_challenge_method", async () => {
    await expectErrorRedirect(validParams({ code_challenge_method: undefined }), "invalid_request");
  });

  it("refuses code_challenge_method=plain", async () => {
    await expectErrorRedirect(validParams({ code_challenge_method: "plain" }), "invalid_request");
  });

  it("refuses a missing or malformed code_challenge", async () => {
    await expectErrorRedirect(validParams({ code_challenge: undefined }), "invalid_request");
    await expectErrorRedirect(validParams({ code_challenge: "short" }), "invalid_request");
    await expectErrorRedirect(validParams({ code_challenge: "a".repeat(42) + "!" }), "invalid_request");
  });

  it("refuses a response_type other than code", async () => {
    await expectErrorRedirect(validParams({ response_type: "token" }), "unsupported_response_type");
    await expectErrorRedirect(validParams({ response_type: undefined }), "invalid_request");
  });

  it("refuses an unknown scope with error, state and iss", async () => {
    await expectErrorRedirect(validParams({ scope: "openid account:read telepathy" }), "invalid_scope");
  });

  it("refuses a missing scope", async () => {
    await expectErrorRedirect(validParams({ scope: undefined }), "invalid_request");
  });

  it("refuses a scope the member client is not allowed", async () => {
    await expectErrorRedirect(validParams({ scope: "openid courses:write" }), "invalid_scope");
  });

  it("refuses account:read from an operator client", async () => {
    const operator = clientFor("operator");
    await expectErrorRedirect(
      validParams({ client_id: operator.clientId, redirect_uri: operator.redirectUri, scope: "openid account:read" }),
      "invalid_scope",
    );
  });

  it("refuses a resource other than the origin with invalid_target", async () => {
    await expectErrorRedirect(validParams({ resource: "https://elsewhere.example.com" }), "invalid_target");
  });

  it("refuses a parameter sent twice", async () => {
    const url = new URL(authorizeUrl(sandbox.url, validParams()));
    url.searchParams.append("scope", "openid");
    const response = await fetch(url, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe("invalid_request");
  });

  it("redirects the error without state when no state was sent", async () => {
    const location = await expectErrorRedirect(validParams({ state: undefined, scope: "nope" }), "invalid_scope");
    expect(location.searchParams.has("state")).toBe(false);
  });
});

describe("authorization endpoint: pages and decisions", () => {
  it("shows an accessible sign-in page listing the demo accounts", async () => {
    const response = await get(validParams());
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toMatch(/<html lang="en">/);
    expect(page).toContain("<main>");
    expect(page).toMatch(/<h1>[^<]+<\/h1>/);
    expect(page).toMatch(/<label for="email">Email<\/label>/);
    expect(page).toMatch(/<label for="password">Password<\/label>/);
    expect(page).toMatch(/<button type="submit">Sign in<\/button>/);
    for (const email of ["maya@example.com", "kai@example.com", "ben@example.com", "olivia@example.com"]) expect(page).toContain(email);
    expect(page).toContain("<code>demo</code>");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it("allow: redirects with code, state and iss", async () => {
    const params = validParams();
    const location = await authorizeWithoutBrowser(authorizeUrl(sandbox.url, params), { email: "maya@example.com" });
    expect(`${location.origin}${location.pathname}`).toBe(params.redirect_uri);
    expect(location.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(location.searchParams.get("state")).toBe("st-123");
    expect(location.searchParams.get("iss")).toBe(sandbox.url);
  });

  it("deny: redirects with access_denied, state and iss", async () => {
    const location = await authorizeWithoutBrowser(authorizeUrl(sandbox.url, validParams()), {
      email: "maya@example.com",
      decision: "deny",
    });
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("st-123");
    expect(location.searchParams.get("iss")).toBe(sandbox.url);
    expect(location.searchParams.has("code")).toBe(false);
  });

  it("shows the form again with a clear message on a wrong password", async () => {
    await expect(
      authorizeWithoutBrowser(authorizeUrl(sandbox.url, validParams()), { email: "maya@example.com", password: "wrong" }),
    ).rejects.toThrow(/do not match/);
  });

  it("sets an HttpOnly, SameSite=Lax sandbox_session cookie and shows the consent page in plain words", async () => {
    const first = await get(validParams());
    const cookies = first.headers.getSetCookie();
    const browserCookie = cookies.find((c) => c.startsWith("sandbox_browser="))?.split(";")[0] ?? "";
    const page = await first.text();
    const requestId = /name="request_id" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const signIn = await fetch(`${sandbox.url}/oauth/authorize/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: browserCookie },
      body: new URLSearchParams({ request_id: requestId, csrf_token: csrf, email: "maya@example.com", password: "demo" }),
    });
    expect(signIn.status).toBe(303);
    const session = signIn.headers.getSetCookie().find((c) => c.startsWith("sandbox_session=")) ?? "";
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Path=\//);
    const consent = await fetch(new URL(signIn.headers.get("location") ?? "", sandbox.url), {
      headers: { cookie: `${browserCookie}; ${session.split(";")[0]}` },
    });
    const consentPage = await consent.text();
    expect(consentPage).toContain("See your enrolled courses, orders and event registrations");
    expect(consentPage).toMatch(/>Allow<\/button>/);
    expect(consentPage).toMatch(/>Deny<\/button>/);
    expect(consentPage).toMatch(/>Sign out<\/button>/);
  });

  it("refuses a decision with a wrong CSRF token or from another browser", async () => {
    const first = await get(validParams());
    const browserCookie =
      first.headers
        .getSetCookie()
        .find((c) => c.startsWith("sandbox_browser="))
        ?.split(";")[0] ?? "";
    const page = await first.text();
    const requestId = /name="request_id" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const post = (cookie: string, token: string) =>
      fetch(`${sandbox.url}/oauth/authorize/sign-in`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ request_id: requestId, csrf_token: token, email: "maya@example.com", password: "demo" }),
      });
    expect((await post(browserCookie, "forged")).status).toBe(403);
    expect((await post("sandbox_browser=someone-else", csrf)).status).toBe(403);
    expect((await post(browserCookie, csrf)).status).toBe(303);
  });

  it("uses a pending request only once", async () => {
    // Drive once by hand to capture the ids, then replay the decision.
    const { fields, cookie } = await signInByHand("kai@example.com");
    const decide = () =>
      fetch(`${sandbox.url}/oauth/authorize/decision`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ ...fields, decision: "allow" }),
      });
    expect((await decide()).status).toBe(303);
    expect((await decide()).status).toBe(400);
  });

  it.each([
    "//evil.example.com",
    "/\t/evil.example.com",
    "/\n/evil.example.com",
    "/a/..//evil.example.com",
    "/a/%2e%2e//evil.example.com",
    "/\\evil.example.com",
    "https://evil.example.com/",
  ])("sends POST /logout with return_to %j to /, never to another host", async (returnTo) => {
    const logout = await fetch(`${sandbox.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ return_to: returnTo }),
    });
    expect(logout.status).toBe(303);
    expect(logout.headers.get("location")).toBe("/");
  });

  it("keeps a return_to that is a path on the site", async () => {
    const logout = await fetch(`${sandbox.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ return_to: "/my-learning?tab=1" }),
    });
    expect(logout.headers.get("location")).toBe("/my-learning?tab=1");
  });

  it("signs out of the sandbox session with POST /logout", async () => {
    const { signIn, cookie } = await signInByHand("ben@example.com");
    const consentPage = await (await fetch(new URL(signIn.headers.get("location") ?? "", sandbox.url), { headers: { cookie } })).text();
    const logoutCsrf = /action="\/logout">\s*<input type="hidden" name="csrf_token" value="([^"]+)"/.exec(consentPage)?.[1] ?? "";
    const forged = await fetch(`${sandbox.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrf_token: "forged" }),
    });
    expect(forged.status).toBe(403);
    const logout = await fetch(`${sandbox.url}/logout`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrf_token: logoutCsrf, return_to: "//evil.example.com" }),
    });
    expect(logout.status).toBe(303);
    expect(logout.headers.get("location")).toBe("/");
    const after = await fetch(authorizeUrl(sandbox.url, validParams()), { headers: { cookie } });
    expect(await after.text()).toContain(">Sign in</button>");
  });
});
