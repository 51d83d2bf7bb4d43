import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { handleCallback } from "@/lib/auth/callback";
import { startLogin } from "@/lib/auth/login";
import { callWithMemberSession } from "@/lib/auth/member-session";
import { revokeAtSite } from "@/lib/auth/revocation";
import { toSessionView } from "@/lib/http/session-view";
import { loadSession, saveSession } from "@/lib/session/session";
import { runAccountOperation } from "@/lib/account-api/client";
import { loadAccountPage } from "@/lib/account-api/registry";
import { type RunningSandbox } from "@/sandbox/server";
import { authorizeWithoutBrowser } from "@/sandbox/testing";

import { renewalClock } from "../support/renewal-clock";
import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { memoryJar, type MemoryJar } from "../support/memory-jar";
import { PROBE_OPERATION } from "../support/probe-operation";

const ACCESS_TOKEN_TTL_SECONDS = 20;

/**
 * The whole member lifecycle against the sandbox over real HTTP: sign in, read the Account API, live
 * through access-token expiry with rotating refresh tokens, revoke. Once with id_tokens, once with
 * UserInfo alone.
 */
describe.each([
  { mode: "id_token", idToken: true },
  { mode: "UserInfo only", idToken: false },
])("member lifecycle ($mode)", ({ idToken }) => {
  let sandbox: RunningSandbox;
  const { comeBackWhenRenewalIsDue } = renewalClock();

  beforeAll(async () => {
    // 20-second access tokens, due for renewal after 10 s: the member comes back then, and each renewal rotates.
    sandbox = await startSandboxForDashboard({ idToken, accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS });
  });
  afterAll(async () => sandbox.close());

  async function signIn(email: string): Promise<MemoryJar> {
    const jar = memoryJar();
    const authorizationUrl = await startLogin(jar, "/courses");
    const redirect = await authorizeWithoutBrowser(authorizationUrl.href, { email });
    expect(redirect.searchParams.get("iss")).toBe(sandbox.url);
    const result = await handleCallback(jar, redirect);
    expect(result.returnTo).toBe("/courses");
    return jar;
  }

  it("signs in and exposes claims, never tokens", async () => {
    const jar = await signIn("maya@example.com");
    const session = (await loadSession(jar))!.data;
    const view = JSON.stringify(toSessionView(session));
    expect(view).toContain("maya@example.com");
    expect(view).not.toContain(session.accessToken);
    expect(session.refreshToken && view.includes(session.refreshToken)).toBeFalsy();
    expect(session.claims.roles).toEqual(["student"]);
    const jwksCalls = sandbox.requests().filter((entry) => entry.endpoint === "jwks").length;
    expect(jwksCalls > 0).toBe(idToken);
  });

  it("keeps working across access-token expiry, rotating the refresh token once per renewal", async () => {
    const jar = await signIn("maya@example.com");
    sandbox.resetRequests();
    comeBackWhenRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    const first = await callWithMemberSession(jar, (_token, session) => loadAccountPage("courses", session));
    expect(first.items.length).toBeGreaterThan(0);
    // Within the renewed token's first half: no renewal.
    expect((await callWithMemberSession(jar, (_token, session) => loadAccountPage("events", session))).items.length).toBeGreaterThan(0);
    expect(sandbox.requests().filter((entry) => entry.grantType === "refresh_token")).toHaveLength(1);
    comeBackWhenRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    const second = await callWithMemberSession(jar, (_token, session) => loadAccountPage("orders", session));
    expect(second.items.length).toBeGreaterThan(0);
    const refreshes = sandbox.requests().filter((entry) => entry.grantType === "refresh_token");
    expect(refreshes.length).toBe(2);
    expect(refreshes.every((entry) => entry.status === 200)).toBe(true);
  });

  it("answers 50 parallel requests at expiry with exactly one refresh at the site", async () => {
    const jar = await signIn("kai@example.com");
    sandbox.resetRequests();
    comeBackWhenRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    const cookies = Object.fromEntries(jar.cookies);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => callWithMemberSession(memoryJar(cookies), (_token, session) => loadAccountPage("courses", session))),
    );
    expect(results.every((page) => page.totalCount === 130)).toBe(true);
    expect(sandbox.requests().filter((entry) => entry.grantType === "refresh_token")).toHaveLength(1);
    expect(sandbox.requests().filter((entry) => entry.endpoint === "token" && entry.status !== 200)).toHaveLength(0);
  });

  it("pages through 130 enrollments", async () => {
    const jar = await signIn("kai@example.com");
    let after: string | null = null;
    const slugs = new Set<string>();
    for (let page = 0; page < 10; page += 1) {
      const result = await callWithMemberSession(jar, (_token, session) => loadAccountPage("courses", session, after));
      for (const course of result.items) slugs.add(course.slug);
      after = result.nextCursor;
      if (!after) break;
    }
    expect(slugs.size).toBe(130);
  });

  it("handles a large (2 KB) access token through the sealed, chunked cookie", async () => {
    sandbox.setKnobs({ accessTokenPadding: 2048 });
    try {
      const jar = await signIn("maya@example.com");
      // Browsers cap one cookie at 4096 bytes of its whole Set-Cookie value, attributes included.
      for (const [name, value] of jar.cookies)
        expect(setCookieBytes(name, value, (jar.options.get(name) ?? {}) as CookieAttributes)).toBeLessThanOrEqual(4096);
      const session = (await loadSession(jar))!.data;
      expect(session.accessToken.length).toBeGreaterThanOrEqual(2048);
      const overview = await callWithMemberSession(jar, (_token, session) => loadAccountPage("overview", session));
      expect(overview.name).toBe("Maya Chen");
    } finally {
      sandbox.setKnobs({ accessTokenPadding: 0 });
    }
  });

  it("revokes at the site: the old tokens stop working and the session cannot be revived", async () => {
    const jar = await signIn("maya@example.com");
    const session = (await loadSession(jar))!.data;
    await revokeAtSite(session);
    const revokeCalls = sandbox.requests().filter((entry) => entry.endpoint === "revoke");
    expect(revokeCalls.length).toBeGreaterThanOrEqual(2);
    await expect(runAccountOperation(session.accessToken, PROBE_OPERATION)).rejects.toMatchObject({
      code: "token_refused",
    });
    // A stale copy of the cookie finds the grant gone: the session ends instead of lingering.
    const stale = memoryJar(Object.fromEntries(jar.cookies));
    await saveSession(stale, { ...session, accessTokenExpiresAt: Date.now() - 1000 });
    await expect(callWithMemberSession(stale, () => Promise.resolve("never"))).rejects.toMatchObject({ code: "unauthenticated" });
    expect(await loadSession(stale)).toBeNull();
  });

  it("shows the site's denial as a readable failure without a session", async () => {
    const jar = memoryJar();
    const authorizationUrl = await startLogin(jar, "/");
    const redirect = await authorizeWithoutBrowser(authorizationUrl.href, { email: "maya@example.com", decision: "deny" });
    await expect(handleCallback(jar, redirect)).rejects.toMatchObject({ code: "authorization_denied", detail: "access_denied" });
    expect(await loadSession(jar)).toBeNull();
  });
});

/** The bytes of the Set-Cookie value the dashboard writes for this cookie: `name=value` and every attribute it sets. */
interface CookieAttributes {
  path?: string;
  maxAge?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: string;
  partitioned?: boolean;
}

function setCookieBytes(name: string, value: string, options: CookieAttributes): number {
  const attributes = [
    `Path=${options.path ?? "/"}`,
    options.maxAge === undefined ? "" : `Max-Age=${options.maxAge}`,
    options.httpOnly ? "HttpOnly" : "",
    options.secure ? "Secure" : "",
    options.sameSite ? `SameSite=${options.sameSite}` : "",
    options.partitioned ? "Partitioned" : "",
  ].filter(Boolean);
  return Buffer.byteLength([`${name}=${value}`, ...attributes].join("; "));
}
