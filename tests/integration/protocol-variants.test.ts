import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { handleCallback } from "@/lib/auth/callback";
import { startLogin } from "@/lib/auth/login";
import { callWithMemberSession } from "@/lib/auth/member-session";
import { revokeAtSite } from "@/lib/auth/revocation";
import { endOtherSessions } from "@/lib/auth/signed-in-sessions";
import { ensureFreshTokens } from "@/lib/auth/tokens";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { resetConfigForTests } from "@/lib/config";
import { loadSession } from "@/lib/session/session";
import { InMemorySharedState, setSharedStateForTests } from "@/lib/session/shared-state";
import { loadAccountPage } from "@/lib/account-api/registry";
import { connectionsLoader } from "@/lib/site/mcp-client";
import type { KnobsPatch, RunningSandbox } from "@/sandbox/server";
import { authorizeWithoutBrowser } from "@/sandbox/testing";

import { renewalClock } from "../support/renewal-clock";
import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { memoryJar, type MemoryJar } from "../support/memory-jar";

/**
 * Issue 30: the member's whole lifecycle (sign in, every page's data, the AI assistants panel over MCP,
 * refreshes with rotating refresh tokens, revoke) against the sandbox over real HTTP, with each protocol
 * knob on: PAR offered and required, DPoP required (with and without a changing nonce), both, and
 * OpenID-only discovery.
 */
const VARIANTS: { name: string; knobs: KnobsPatch; pushed: boolean; dpop: boolean }[] = [
  { name: "PAR offered", knobs: { par: "offered" }, pushed: true, dpop: false },
  { name: "PAR required", knobs: { par: "required" }, pushed: true, dpop: false },
  { name: "DPoP required", knobs: { dpop: "required" }, pushed: false, dpop: true },
  {
    name: "DPoP required with a changing nonce, and a proof required to revoke",
    knobs: { dpop: "required", dpopNonce: true, dpopRevocation: true },
    pushed: false,
    dpop: true,
  },
  {
    name: "PAR and DPoP required, with a nonce and a proof required to revoke",
    knobs: { par: "required", dpop: "required", dpopNonce: true, dpopRevocation: true },
    pushed: true,
    dpop: true,
  },
  { name: "OpenID-only discovery", knobs: { openIdDiscoveryOnly: true }, pushed: false, dpop: false },
  // RFC 6749 section 3.3 delimits scopes with spaces; GitHub's OAuth apps write "openid,account:read".
  { name: "scopes written with commas", knobs: { commaScopes: true }, pushed: false, dpop: false },
  // A serializer that writes every field (Jackson's default): `"id_token": null` on each renewal, and at
  // sign-in where none is issued (`"refresh_token": null`: tests/integration/refresh-without-rotation.test.ts);
  // in the metadata, what the site does not offer (PAR, DPoP, sign-in languages; with no id_token, its keys).
  { name: "answers that write null for what they leave out", knobs: { writesNulls: true }, pushed: false, dpop: false },
  {
    name: "answers that write null for what they leave out, no id_token",
    knobs: { writesNulls: true, idToken: false },
    pushed: false,
    dpop: false,
  },
  // `"expires_in": "20"`, as Azure AD's v1.0 endpoint writes it: 20 seconds, so each data request renews.
  { name: "a lifetime written as a string of digits", knobs: { expiresInAsText: true }, pushed: false, dpop: false },
  // The issuer with its path "/" (Auth0's manner), which the operator names in SITE_ISSUER.
  { name: "an issuer written with a trailing slash", knobs: { issuerTrailingSlash: true }, pushed: false, dpop: false },
  // A web server or CDN in front of the site compresses its answers (RFC 9110 section 8.4.1), which the
  // dashboard asks for and reads: metadata, keys, tokens, UserInfo, revocation, GraphQL and MCP.
  { name: "answers compressed with gzip", knobs: { contentCoding: "gzip" }, pushed: false, dpop: false },
  {
    name: "answers compressed with br, PAR and DPoP required",
    knobs: { contentCoding: "br", par: "required", dpop: "required" },
    pushed: true,
    dpop: true,
  },
  {
    name: "an issuer written with a trailing slash, PAR required",
    knobs: { issuerTrailingSlash: true, par: "required" },
    pushed: true,
    dpop: false,
  },
];

const ACCESS_TOKEN_TTL_SECONDS = 20;

describe.each(VARIANTS)("member lifecycle with $name", ({ knobs, pushed, dpop }) => {
  let sandbox: RunningSandbox;

  const { comeBackWhenRenewalIsDue } = renewalClock();

  beforeAll(async () => {
    // 20-second access tokens: each data request below comes once the last one's are due for renewal.
    sandbox = await startSandboxForDashboard({ ...knobs, accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS });
    sandbox.setMcpConnectionsBeta(true);
    if (knobs.issuerTrailingSlash) {
      process.env.SITE_ISSUER = `${sandbox.url}/`;
      resetConfigForTests();
      resetDiscoveryCacheForTests();
    }
  });
  afterAll(async () => {
    await sandbox.close();
    delete process.env.DPOP;
    delete process.env.SITE_ISSUER;
    resetConfigForTests();
  });

  async function signIn(email: string): Promise<MemoryJar> {
    const jar = memoryJar();
    const authorizationUrl = await startLogin(jar, "/courses");
    if (pushed) expect([...authorizationUrl.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    else expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.has("dpop_jkt")).toBe(dpop && !pushed);
    const redirect = await authorizeWithoutBrowser(authorizationUrl.href, { email });
    await handleCallback(jar, redirect);
    return jar;
  }

  it("signs in, reads every page and the MCP tools across refreshes, and revokes", async () => {
    const jar = await signIn("maya@example.com");
    const session = (await loadSession(jar))!.data;
    expect(session.scopes).toEqual(expect.arrayContaining(["openid", "account:read", "profile", "email"]));
    expect(session.tokenType).toBe(dpop ? "DPoP" : undefined);
    expect(session.dpopKey !== undefined).toBe(dpop);
    sandbox.resetRequests();
    for (const page of ["overview", "courses", "orders", "events"] as const) {
      comeBackWhenRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
      const data = await callWithMemberSession(jar, (_token, session) => loadAccountPage(page, session));
      expect(data, page).toBeDefined();
    }
    const connections = await callWithMemberSession(jar, connectionsLoader("en"));
    expect(connections.available).toBe(true);
    const log = sandbox.requests();
    if (knobs.contentCoding) {
      // Each answer came compressed, and was read; MCP's go through fetch, which asks for gzip and deflate.
      const endpoints = knobs.contentCoding === "gzip" ? ["token", "graphql", "mcp"] : ["token", "graphql"];
      const answered = log.filter((entry) => endpoints.includes(entry.endpoint) && entry.status === 200);
      expect(answered.length).toBeGreaterThanOrEqual(8);
      expect(answered.filter((entry) => entry.contentCoding !== knobs.contentCoding)).toEqual([]);
    }
    expect(log.filter((entry) => entry.grantType === "refresh_token" && entry.status === 200).length).toBeGreaterThanOrEqual(4);
    expect(log.filter((entry) => entry.endpoint === "graphql" && entry.status !== 200 && entry.status !== 401)).toEqual([]);
    const latest = (await loadSession(jar))!.data;
    // Each renewal's scope is read as the sign-in's was.
    expect(latest.scopes.sort()).toEqual([...session.scopes].sort());
    sandbox.resetRequests();
    await revokeAtSite(latest);
    const tokens = sandbox.state.store;
    expect(tokens.refreshTokens.get(latest.refreshToken!)?.status).toBe("revoked");
    // Refresh token and access token revoked (a 400 only for a nonce that changed meanwhile, then retried).
    const revocations = sandbox.requests().filter((entry) => entry.endpoint === "revoke");
    expect(revocations.filter((entry) => entry.status === 200).length).toBeGreaterThanOrEqual(2);
    expect(revocations.filter((entry) => entry.status !== 200 && entry.status !== 400)).toEqual([]);
    // The refresh token no longer works at the site.
    sandbox.resetRequests();
    await expect(ensureFreshTokens(latest, { force: true })).rejects.toMatchObject({ code: "session_ended" });
    expect(
      sandbox
        .requests()
        .filter((entry) => entry.grantType === "refresh_token")
        .map((entry) => entry.status),
    ).toContain(400);
  });

  it("Sign out there revokes the other session's grant (its key travels sealed in the shared state)", async () => {
    setSharedStateForTests(new InMemorySharedState());
    const laptop = (await loadSession(await signIn("ben@example.com")))!.data;
    const phone = (await loadSession(await signIn("ben@example.com")))!.data;
    sandbox.resetRequests();
    expect(await endOtherSessions(phone, { others: true })).toEqual({ ended: 1, complete: true });
    expect(sandbox.state.store.refreshTokens.get(laptop.refreshToken!)?.status).toBe("revoked");
    expect(sandbox.state.store.refreshTokens.get(phone.refreshToken!)?.status).toBe("active");
  });

  it("keeps the session's key through refreshes: the renewed tokens stay bound to it", async () => {
    const jar = await signIn("kai@example.com");
    const before = (await loadSession(jar))!.data;
    comeBackWhenRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    await callWithMemberSession(jar, (_token, session) => loadAccountPage("orders", session));
    const after = (await loadSession(jar))!.data;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.dpopKey).toEqual(before.dpopKey);
    if (dpop) expect(sandbox.state.store.accessTokens.get(after.accessToken)?.dpopJkt).toMatch(/^[\w-]{43}$/);
  });
});

describe("a site whose serializer writes null for every field it leaves empty, with scopes left unticked", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandboxForDashboard({ writesNulls: true, partialConsent: true });
  });
  afterAll(async () => sandbox.close());

  // OpenID Connect Core 5.3.2 asks for a claim without a value to be left out; the id_token and UserInfo
  // write it null instead (`"email": null`), and that is a claim left out, not another member.
  it.each([
    { unticked: "nothing", grantScopes: undefined, email: "maya@example.com", name: "Maya Chen" },
    { unticked: "email", grantScopes: ["openid", "profile", "account:read"], email: "", name: "Maya Chen" },
    { unticked: "email and profile", grantScopes: ["openid", "account:read"], email: "", name: "" },
  ])("with $unticked unticked, signs in with the claims granted and reads the pages", async ({ grantScopes, email, name }) => {
    const jar = memoryJar();
    const url = await startLogin(jar, "/");
    await handleCallback(jar, await authorizeWithoutBrowser(url.href, { email: "maya@example.com", grantScopes }));
    const session = (await loadSession(jar))!.data;
    expect(session.claims).toMatchObject({ email, name });
    const courses = await callWithMemberSession(jar, (_token, member) => loadAccountPage("courses", member));
    expect(courses.items.length).toBeGreaterThan(0);
  });
});

describe("a site that writes its issuer with a trailing slash, without SITE_ISSUER", () => {
  // Checklist 1: an issuer that differs from the configured one, even by a trailing slash, is refused.
  it("refuses to start a sign-in: a configuration error, and no request to the authorization endpoint", async () => {
    const sandbox = await startSandboxForDashboard({ issuerTrailingSlash: true });
    try {
      await expect(startLogin(memoryJar(), "/")).rejects.toMatchObject({ code: "site_misconfigured" });
      expect(sandbox.requests().filter((entry) => entry.endpoint === "authorize")).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});

describe("DPOP=required against a site without DPoP", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandboxForDashboard({});
    process.env.DPOP = "required";
    resetConfigForTests();
  });
  afterAll(async () => {
    await sandbox.close();
    delete process.env.DPOP;
    resetConfigForTests();
  });

  it("refuses to start a sign-in, with a configuration error and nothing kept", async () => {
    const jar = memoryJar();
    await expect(startLogin(jar, "/")).rejects.toMatchObject({ code: "site_misconfigured", detail: "dpop_unsupported" });
    expect(jar.cookies.size).toBe(0);
  });
});

describe("DPOP=off against a site that offers DPoP", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandboxForDashboard({ dpop: "offered" });
    process.env.DPOP = "off";
    resetConfigForTests();
  });
  afterAll(async () => {
    await sandbox.close();
    delete process.env.DPOP;
    resetConfigForTests();
  });

  it("signs in with Bearer tokens and no key", async () => {
    const jar = memoryJar();
    const url = await startLogin(jar, "/");
    expect(url.searchParams.has("dpop_jkt")).toBe(false);
    await handleCallback(jar, await authorizeWithoutBrowser(url.href, { email: "maya@example.com" }));
    const session = (await loadSession(jar))!.data;
    expect(session.tokenType).toBeUndefined();
    expect(session.dpopKey).toBeUndefined();
    expect((await callWithMemberSession(jar, (_token, session) => loadAccountPage("courses", session))).items.length).toBeGreaterThan(0);
  });
});
