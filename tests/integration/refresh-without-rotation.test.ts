import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { callWithMemberSession } from "@/lib/auth/member-session";
import { accessTokenRenewalTime } from "@/lib/auth/token-times";
import { ROTATION_MEMORY_MS } from "@/lib/auth/tokens";
import { revokeAtSite } from "@/lib/auth/revocation";
import { loadSession, saveSession, type SessionData } from "@/lib/session/session";
import { loadAccountPage } from "@/lib/account-api/registry";
import { type RunningSandbox } from "@/sandbox/server";
import { SEEDED_DASHBOARD_CLIENT } from "@/sandbox/seed";
import { postSandboxControl } from "@/sandbox/testing";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { memoryJar } from "../support/memory-jar";
import { signInWithJar } from "../support/sign-in-with-jar";

/** The site's settings: its access tokens' lifetime, and whether its renewals write `"refresh_token": null`. */
const SETTINGS = [
  // Shorter than the refresh margin: every request renews.
  { accessTokenTtlSeconds: 20, writesNulls: false },
  { accessTokenTtlSeconds: 90, writesNulls: false },
  { accessTokenTtlSeconds: 150, writesNulls: false },
  { accessTokenTtlSeconds: 600, writesNulls: false },
  // A serializer that writes every field: `"refresh_token": null` (and `"id_token": null`) in each renewal's answer.
  { accessTokenTtlSeconds: 20, writesNulls: true },
  { accessTokenTtlSeconds: 150, writesNulls: true },
];

const NAMED_SETTINGS = SETTINGS.map((setting) => {
  const answering = setting.writesNulls ? ", answering null for them" : "";
  return [`a site that keeps its refresh tokens${answering}, access tokens of ${setting.accessTokenTtlSeconds} s`, setting] as const;
});

/**
 * A site that does not rotate refresh tokens (RFC 6749 section 6 lets it choose; many providers keep one
 * refresh token for the grant's life): each refresh answers a new access token and no refresh_token. The
 * dashboard keeps its refresh token and renews with it each time the access token is due, over real HTTP,
 * at access-token lifetimes shorter and longer than the two minutes a refresh is remembered across instances.
 */
describe.each(NAMED_SETTINGS)("%s", (_name, { accessTokenTtlSeconds, writesNulls }) => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startSandboxForDashboard({ accessTokenTtlSeconds, refreshWithoutRotation: true, writesNulls }, { control: true });
  });
  afterAll(async () => sandbox.close());
  afterEach(() => vi.useRealTimers());

  /** The clock at `time`, moving on from there (a refused renewal waits a moment for another instance's tokens). */
  const at = (time: number) => vi.useFakeTimers({ toFake: ["Date"], now: time, shouldAdvanceTime: true });
  /**
   * How long after a renewal the next one goes to the site: once its access token is inside the refresh margin
   * (at once when it lives less than the margin) and past the half of its life that the record of that renewal
   * lasts; plus a second.
   */
  const nextRenewalAfterMs = () => accessTokenRenewalTime(0, accessTokenTtlSeconds * 1000) + 1_000;
  const overview = (_token: string, session: SessionData) => loadAccountPage("overview", session);
  const refreshesAtSite = () => sandbox.requests().filter((entry) => entry.grantType === "refresh_token");

  it("renews at the site each time the access token is due; a cookie from before a renewal adopts its fresh token", async () => {
    const jar = await signInWithJar();
    const { refreshToken } = (await loadSession(jar))!.data;
    const start = Date.now();
    sandbox.resetRequests();
    // With short lifetimes, steps land while a rotation's record would still be remembered (ROTATION_MEMORY_MS).
    const step = nextRenewalAfterMs();
    let renewals = 0;
    for (let elapsed = step; elapsed <= Math.max(3 * step, ROTATION_MEMORY_MS + step); elapsed += step) {
      const beforeRenewal = memoryJar(Object.fromEntries(jar.cookies));
      at(start + elapsed);
      expect((await callWithMemberSession(jar, overview)).name).toBe("Maya Chen");
      renewals += 1;
      const session = (await loadSession(jar))!.data;
      // A fresh access token from the site, and the refresh token the site keeps.
      expect(session.accessTokenExpiresAt).toBeGreaterThan(Date.now() + accessTokenTtlSeconds * 1000 - 1_000);
      expect(session.refreshToken).toBe(refreshToken);
      expect(refreshesAtSite()).toHaveLength(renewals);
      // The same renewal, due for a request with the cookie from before it: the record answers, with that token.
      expect((await callWithMemberSession(beforeRenewal, overview)).name).toBe("Maya Chen");
      expect((await loadSession(beforeRenewal))!.data.accessToken).toBe(session.accessToken);
      expect(refreshesAtSite()).toHaveLength(renewals);
    }
    expect(refreshesAtSite().every((entry) => entry.status === 200)).toBe(true);
    expect(sandbox.requests().filter((entry) => entry.endpoint === "graphql" && entry.status !== 200)).toEqual([]);
  });

  it("answers 20 parallel requests at each renewal with one refresh at the site", async () => {
    const jar = await signInWithJar();
    const cookies = Object.fromEntries(jar.cookies);
    const start = Date.now();
    sandbox.resetRequests();
    for (const round of [1, 2]) {
      at(start + round * nextRenewalAfterMs());
      const pages = await Promise.all(Array.from({ length: 20 }, () => callWithMemberSession(memoryJar(cookies), overview)));
      expect(pages.every((page) => page.name === "Maya Chen")).toBe(true);
      expect(refreshesAtSite()).toHaveLength(round);
    }
  });

  it("an access token the site refuses while its renewal is remembered is renewed at the site, not adopted again", async () => {
    const jar = await signInWithJar();
    const start = Date.now();
    at(start + nextRenewalAfterMs());
    await callWithMemberSession(jar, overview);
    const renewed = (await loadSession(jar))!.data;
    // The site revokes that access token alone (RFC 7009 section 2.1): its refresh token stays good.
    const revoked = await fetch(`${sandbox.url}/api/oauth/revoke`, {
      method: "POST",
      body: new URLSearchParams({
        token: renewed.accessToken,
        token_type_hint: "access_token",
        client_id: SEEDED_DASHBOARD_CLIENT.clientId,
        client_secret: SEEDED_DASHBOARD_CLIENT.clientSecret,
      }),
    });
    expect(revoked.status).toBe(200);
    sandbox.resetRequests();
    // At once: the refused token is the one the record of its renewal holds.
    expect((await callWithMemberSession(jar, overview)).name).toBe("Maya Chen");
    expect(refreshesAtSite().map((entry) => entry.status)).toEqual([200]);
    const again = (await loadSession(jar))!.data;
    expect(again.accessToken).not.toBe(renewed.accessToken);
    expect(again.refreshToken).toBe(renewed.refreshToken);
    // A cookie from before that renewal takes the new record, not the refused token.
    const copy = memoryJar(Object.fromEntries(jar.cookies));
    await saveSession(copy, renewed);
    expect((await callWithMemberSession(copy, overview)).name).toBe("Maya Chen");
    expect(refreshesAtSite()).toHaveLength(1);
  });

  it("when the member withdraws the app's access while a renewal is remembered, the session ends saying so", async () => {
    const jar = await signInWithJar();
    at(Date.now() + nextRenewalAfterMs());
    await callWithMemberSession(jar, overview);
    await postSandboxControl(sandbox.url, "/__sandbox/withdraw-access", { email: "maya@example.com" });
    sandbox.resetRequests();
    await expect(callWithMemberSession(jar, overview)).rejects.toMatchObject({ code: "unauthenticated", detail: "access_withdrawn" });
    expect(refreshesAtSite().map((entry) => entry.status)).toEqual([400]);
  });

  it("revokes the one refresh token at sign-out: the next renewal is refused and the session ends", async () => {
    const jar = await signInWithJar();
    const start = Date.now();
    const due = nextRenewalAfterMs();
    at(start + due);
    await callWithMemberSession(jar, overview);
    await revokeAtSite((await loadSession(jar))!.data);
    sandbox.resetRequests();
    at(start + 2 * due);
    await expect(callWithMemberSession(jar, () => Promise.resolve("never"))).rejects.toMatchObject({ code: "unauthenticated" });
    expect(refreshesAtSite().map((entry) => entry.status)).toEqual([400]);
  });
});
