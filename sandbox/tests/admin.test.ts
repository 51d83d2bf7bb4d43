import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { authorizeWithoutBrowser, csrfTokenOf, postSandboxControl, SandboxBrowser } from "../testing";
import { authorizeUrl, graphql, newPkce, postForm } from "./helpers";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, control: true });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  const response = await postSandboxControl(sandbox.url, "/__sandbox/reset");
  expect(response.status).toBe(200);
});

const APPS = "/admin/developers/oauth-applications";

async function pageOf(browser: SandboxBrowser, path: string): Promise<{ status: number; text: string }> {
  const response = await browser.get(path);
  return { status: response.status, text: await response.text() };
}

async function turnOnBeta(browser: SandboxBrowser): Promise<void> {
  const admin = await pageOf(browser, "/admin");
  const response = await browser.post("/admin/beta", { csrf_token: csrfTokenOf(admin.text) ?? "", mcp_connections: "on" });
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe("/admin");
}

interface Created {
  clientId: string;
  clientSecret: string | undefined;
  page: string;
}

function readonlyValue(page: string, id: string): string | undefined {
  const input = new RegExp(`<input id="${id}"[^>]*>`).exec(page)?.[0];
  return input ? /value="([^"]*)"/.exec(input)?.[1] : undefined;
}

async function createApp(browser: SandboxBrowser, fields: Record<string, string | string[]> = {}): Promise<Created> {
  const list = await pageOf(browser, APPS);
  const response = await browser.post(APPS, {
    csrf_token: csrfTokenOf(list.text) ?? "",
    name: "Study buddy",
    redirect_uris: "https://buddy.example.com/callback\nhttp://127.0.0.1:7777/cb",
    scope: ["openid", "profile", "email", "account:read"],
    type: "confidential",
    ...fields,
  });
  const page = await response.text();
  expect(response.status, page).toBe(200);
  const clientId = readonlyValue(page, "created-client-id");
  if (clientId === undefined) throw new Error("no client id on the page");
  return { clientId, clientSecret: readonlyValue(page, "created-client-secret"), page };
}

async function codeFor(clientId: string, redirectUri: string, scope: string): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = newPkce();
  const location = await authorizeWithoutBrowser(
    authorizeUrl(sandbox.url, {
      response_type: "code",
      client_id: clientId,
      redirect_uri: redirectUri,
      scope,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s1",
      nonce: "n1",
      resource: sandbox.url,
    }),
    { email: "maya@example.com" },
  );
  const code = location.searchParams.get("code");
  if (code === null) throw new Error(`no code: ${location.toString()}`);
  return { code, verifier };
}

describe("admin sign-in and roles", () => {
  it("sends a signed-out browser to the sandbox sign-in page, then back to /admin", async () => {
    const browser = new SandboxBrowser(sandbox.url);
    const response = await browser.get("/admin");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/sign-in?return_to=%2Fadmin");
    const signIn = await pageOf(browser, "/sign-in?return_to=%2Fadmin");
    expect(signIn.text).toContain('<label for="email">Email</label>');
    expect(signIn.text).toContain('<label for="password">Password</label>');
    const posted = await browser.post("/sign-in", {
      csrf_token: csrfTokenOf(signIn.text) ?? "",
      return_to: "/admin",
      email: "olivia@example.com",
      password: "demo",
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe("/admin");
    expect((await pageOf(browser, "/admin")).status).toBe(200);
  });

  it("refuses a wrong password, a missing CSRF token, and an off-site return_to", async () => {
    const browser = new SandboxBrowser(sandbox.url);
    const signIn = await pageOf(browser, "/sign-in");
    const csrf = csrfTokenOf(signIn.text) ?? "";
    const wrong = await browser.post("/sign-in", { csrf_token: csrf, email: "olivia@example.com", password: "nope" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('role="alert"');
    const noCsrf = await browser.post("/sign-in", { email: "olivia@example.com", password: "demo" });
    expect(noCsrf.status).toBe(400);
    const again = csrfTokenOf((await pageOf(browser, "/sign-in")).text) ?? "";
    const offsite = await browser.post("/sign-in", {
      csrf_token: again,
      return_to: "//evil.example/",
      email: "olivia@example.com",
      password: "demo",
    });
    expect(offsite.headers.get("location")).toBe("/admin");
  });

  it("shows a student a clear 403 page", async () => {
    const student = await SandboxBrowser.signIn(sandbox.url, "maya@example.com");
    for (const path of ["/admin", "/admin/developers", APPS]) {
      const page = await pageOf(student, path);
      expect(page.status, path).toBe(403);
      expect(page.text).toContain("<h1>Admins only</h1>");
      expect(page.text).toContain("Only the site's owner or administrators can open the admin area");
    }
    const post = await student.post("/admin/beta", { mcp_connections: "on" });
    expect(post.status).toBe(403);
    expect(sandbox.state.settings.mcpConnectionsBeta).toBe(false);
  });
});

describe("the MCP connections beta", () => {
  it("hides the Developers pages while it is off", async () => {
    const olivia = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    const admin = await pageOf(olivia, "/admin");
    expect(admin.text).toContain('<label for="mcp-connections">MCP connections</label>');
    expect(admin.text).not.toContain('href="/admin/developers"');
    for (const path of ["/admin/developers", APPS]) {
      const page = await pageOf(olivia, path);
      expect(page.status, path).toBe(404);
      expect(page.text).toContain("MCP connections");
    }
    const create = await olivia.post(APPS, {
      csrf_token: csrfTokenOf(admin.text) ?? "",
      name: "X",
      redirect_uris: "https://x.example/cb",
      scope: "openid",
      type: "public",
    });
    expect(create.status).toBe(404);
    const adminClients = () => [...sandbox.state.clients.values()].filter((client) => client.kind === "admin");
    expect(adminClients()).toEqual([]);
    // Off, the beta hides the forms only: a client made the operator's own way (as tests and seeding do) is still created.
    const scripted = sandbox.createMemberClient({
      name: "Scripted",
      redirectUris: ["https://x.example/cb"],
      scopes: ["openid"],
      type: "public",
    });
    expect(scripted.ok).toBe(true);
    expect(adminClients()).toHaveLength(1);
  });

  it("is switched by a CSRF-protected form", async () => {
    const olivia = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    expect((await olivia.post("/admin/beta", { mcp_connections: "on" })).status).toBe(403);
    const admin = await pageOf(olivia, "/admin");
    for (const origin of ["https://evil.example", "null"]) {
      const foreign = await olivia.post("/admin/beta", { csrf_token: csrfTokenOf(admin.text) ?? "", mcp_connections: "on" }, { origin });
      expect(foreign.status, origin).toBe(403);
    }
    // Our own pages make browsers send their Origin with the forms.
    expect((await olivia.get("/admin")).headers.get("referrer-policy")).toBe("same-origin");
    expect(sandbox.state.settings.mcpConnectionsBeta).toBe(false);

    await turnOnBeta(olivia);
    expect(sandbox.state.settings.mcpConnectionsBeta).toBe(true);
    const after = await pageOf(olivia, "/admin");
    expect(after.text).toContain("MCP connections is on.");
    expect(after.text).toContain('href="/admin/developers"');
    const developers = await pageOf(olivia, "/admin/developers");
    expect(developers.status).toBe(200);
    expect(developers.text).toContain(`${sandbox.url}/mcp`);
    expect(developers.text).toContain(`href="${APPS}"`);

    const off = await olivia.post("/admin/beta", { csrf_token: csrfTokenOf(after.text) ?? "" });
    expect(off.status).toBe(303);
    expect(sandbox.state.settings.mcpConnectionsBeta).toBe(false);
    expect((await pageOf(olivia, "/admin/developers")).status).toBe(404);
  });
});

describe("OAuth applications", () => {
  it("creates a confidential member client, shows the secret once, and keeps only its hash", async () => {
    const olivia = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    await turnOnBeta(olivia);
    const created = await createApp(olivia);
    expect(created.clientId).toMatch(/^app_[0-9a-f]{24}$/);
    expect(created.clientSecret).toMatch(/^sks_/);
    expect(created.page).toContain("shown only this once");
    const stored = sandbox.state.clients.get(created.clientId);
    expect(stored).toMatchObject({ kind: "admin", audience: "member", authMethod: "client_secret_post", clientName: "Study buddy" });
    expect(stored?.clientSecretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(created.clientSecret ?? "-");

    const list = await pageOf(olivia, APPS);
    expect(list.text).toContain("Study buddy");
    expect(list.text).toContain(created.clientId);
    expect(list.text).not.toContain(created.clientSecret ?? "-");
    expect(list.text).toContain('aria-label="Delete Study buddy"');
  });

  it("works with the authorization and token endpoints exactly like the seeded dashboard client", async () => {
    const olivia = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    await turnOnBeta(olivia);
    const { clientId, clientSecret } = await createApp(olivia);
    const redirectUri = "https://buddy.example.com/callback";
    const { code, verifier } = await codeFor(clientId, redirectUri, "openid profile email account:read");
    const exchange = (secret: string | undefined) =>
      postForm(`${sandbox.url}/api/oauth/token`, {
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: clientId,
        client_secret: secret,
        resource: sandbox.url,
      });
    expect((await exchange("sks_wrong")).body.error).toBe("invalid_client");
    expect((await exchange(undefined)).body.error).toBe("invalid_client");
    const second = await codeFor(clientId, redirectUri, "openid profile email account:read");
    const tokens = await postForm(`${sandbox.url}/api/oauth/token`, {
      grant_type: "authorization_code",
      code: second.code,
      redirect_uri: redirectUri,
      code_verifier: second.verifier,
      client_id: clientId,
      client_secret: clientSecret,
      resource: sandbox.url,
    });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(typeof tokens.body.id_token).toBe("string");
    const viewer = await graphql(sandbox, String(tokens.body.access_token), "{ viewer { email } }");
    expect(viewer.body.data).toEqual({ viewer: { email: "maya@example.com" } });
    const refreshed = await postForm(`${sandbox.url}/api/oauth/token`, {
      grant_type: "refresh_token",
      refresh_token: String(tokens.body.refresh_token),
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(refreshed.status).toBe(200);
  });

  it("creates a public client (no secret, PKCE only) that only gets the scopes chosen", async () => {
    const olivia = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    await turnOnBeta(olivia);
    const created = await createApp(olivia, { type: "public", scope: ["openid", "account:read"], name: "Phone app" });
    expect(created.clientSecret).toBeUndefined();
    expect(created.page).toContain("no secret");
    const redirectUri = "http://127.0.0.1:7777/cb";
    const { code, verifier } = await codeFor(created.clientId, redirectUri, "openid account:read");
    const tokens = await postForm(`${sandbox.url}/api/oauth/token`, {
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: created.clientId,
      resource: sandbox.url,
    });
    expect(tokens.status).toBe(200);
    const tooMuch = await fetch(
      authorizeUrl(sandbox.url, {
        response_type: "code",
        client_id: created.clientId,
        redirect_uri: redirectUri,
        scope: "openid email",
        code_challenge: newPkce().challenge,
        code_challenge_method: "S256",
      }),
      { redirect: "manual" },
    );
    expect(new URL(tooMuch.headers.get("location") ?? "").searchParams.get("error")).toBe("invalid_scope");
  });

  it("refuses invalid input with every problem listed, and keeps what was typed", async () => {
    const olivia = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    await turnOnBeta(olivia);
    const list = await pageOf(olivia, APPS);
    const response = await olivia.post(APPS, {
      csrf_token: csrfTokenOf(list.text) ?? "",
      name: "",
      redirect_uris: "http://example.com/cb\nhttps://ok.example/cb#frag\n<script>",
      type: "sideways",
      scope: ["openid", "courses:write"],
    });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain('role="alert"');
    for (const message of [
      "Enter a name",
      "must use https",
      "must not contain a fragment",
      "not an absolute URL",
      "from the list only",
      "confidential or public",
    ]) {
      expect(page).toContain(message);
    }
    expect(page).not.toContain("<script>");
    expect(page).toContain("&lt;script&gt;");
    expect([...sandbox.state.clients.values()].filter((client) => client.kind === "admin")).toEqual([]);
  });

  it("deletes a client and revokes all its tokens", async () => {
    const olivia = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    await turnOnBeta(olivia);
    const { clientId, clientSecret } = await createApp(olivia);
    const redirectUri = "https://buddy.example.com/callback";
    const { code, verifier } = await codeFor(clientId, redirectUri, "openid account:read");
    const tokens = await postForm(`${sandbox.url}/api/oauth/token`, {
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
      client_secret: clientSecret,
      resource: sandbox.url,
    });
    const accessToken = String(tokens.body.access_token);
    expect((await graphql(sandbox, accessToken, "{ viewer { id } }")).status).toBe(200);

    const list = await pageOf(olivia, APPS);
    const noCsrf = await olivia.post(`${APPS}/${clientId}/delete`, {});
    expect(noCsrf.status).toBe(403);
    const deleted = await olivia.post(`${APPS}/${clientId}/delete`, { csrf_token: csrfTokenOf(list.text) ?? "" });
    expect(deleted.status).toBe(303);
    const after = await pageOf(olivia, APPS);
    expect(after.text).toContain("Deleted Study buddy. Every token issued to it has been revoked.");
    expect(after.text).not.toContain(clientId);
    expect(after.text).toContain("No OAuth applications yet.");

    const refused = await graphql(sandbox, accessToken, "{ viewer { id } }");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const refresh = await postForm(`${sandbox.url}/api/oauth/token`, {
      grant_type: "refresh_token",
      refresh_token: String(tokens.body.refresh_token),
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(refresh.body.error).toBe("invalid_client");
    expect(
      [...sandbox.state.store.grants.values()]
        .filter((grant) => grant.clientId === clientId)
        .every((grant) => grant.revokedAt !== undefined),
    ).toBe(true);
  });

  it("is reset by POST /__sandbox/reset: beta off, created clients deleted", async () => {
    const olivia = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    await turnOnBeta(olivia);
    const { clientId } = await createApp(olivia);
    expect((await postSandboxControl(sandbox.url, "/__sandbox/reset")).status).toBe(200);
    expect(sandbox.state.settings.mcpConnectionsBeta).toBe(false);
    expect(sandbox.state.clients.has(clientId)).toBe(false);
    expect(sandbox.state.clients.has("companion-dashboard")).toBe(true);
    // The session survives a reset.
    expect((await pageOf(olivia, "/admin")).status).toBe(200);
  });

  it("lets tests create member clients programmatically", () => {
    const created = sandbox.createMemberClient({
      name: "Scripted",
      redirectUris: ["http://localhost:3000/api/auth/callback"],
      scopes: ["openid", "account:read"],
      type: "confidential",
    });
    expect(created.ok).toBe(true);
    if (created.ok) expect(created.clientSecret).toMatch(/^sks_/);
    const refused = sandbox.createMemberClient({ name: "Bad", redirectUris: ["ftp://x"], scopes: [], type: "public" });
    expect(refused.ok).toBe(false);
  });
});
