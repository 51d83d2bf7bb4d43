import { NextRequest } from "next/server";
import { beforeEach, describe, expect, it } from "vitest";

import { SHARED_STATE_RETRY_AFTER_SECONDS } from "@/lib/http/error-responses";
import { loadSession, saveSession } from "@/lib/session/session";
import { InMemorySharedState, setSharedStateForTests, SharedStateUnavailableError } from "@/lib/session/shared-state";
import { proxy } from "@/proxy";

import { setUpDashboardOnFakeSite, sharedStateDownFromTheGrant } from "../../support/dashboard-on-fake-site";
import { TEST_APP_URL } from "../../support/env";
import { memoryJar, type MemoryJar } from "../../support/memory-jar";
import { expiringSession } from "../../support/session-fixture";

/**
 * The proxy refreshes before a page renders through the data routes' own refresh path
 * (refreshMemberSession): these fail when it stops persisting a rotation or ending a refused grant.
 */
const site = setUpDashboardOnFakeSite();

beforeEach(() => {
  // A rotating site: rt-0 becomes rt-1 once, and is refused after that.
  let spent = false;
  site.handlers.set("POST /api/oauth/token", (call) => {
    if ((call.body as URLSearchParams).get("refresh_token") !== "rt-0" || spent) return { status: 400, json: { error: "invalid_grant" } };
    spent = true;
    return { json: { access_token: "at-1", token_type: "Bearer", expires_in: 7200, refresh_token: "rt-1", scope: "openid account:read" } };
  });
});

async function signedInBrowser(): Promise<MemoryJar> {
  const browser = memoryJar();
  await saveSession(browser, expiringSession());
  return browser;
}

/** Renders a page through the proxy with the browser's cookies, and lets the browser keep what the answer sets. */
async function renderPage(browser: MemoryJar): Promise<void> {
  const response = await proxy(new NextRequest(`${TEST_APP_URL}/courses`, { headers: { cookie: browser.header() } }));
  for (const cookie of response.cookies.getAll()) browser.write(cookie.name, cookie.value, { maxAge: cookie.maxAge });
}

describe("the proxy's refresh before a page render", () => {
  it("persists the rotated refresh token in the page's answer", async () => {
    const browser = await signedInBrowser();
    await renderPage(browser);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
    expect((await loadSession(browser))?.data).toMatchObject({ accessToken: "at-1", refreshToken: "rt-1" });
  });

  it("ends the session when the site no longer accepts the grant", async () => {
    const browser = memoryJar();
    await saveSession(browser, expiringSession({ refreshToken: "rt-revoked" }));
    const copy = memoryJar(Object.fromEntries(browser.cookies));
    await renderPage(browser);
    expect(browser.cookies.size).toBe(0);
    // Ended everywhere: a copy of the cookie opens nothing either.
    expect(await loadSession(copy)).toBeNull();
  });

  it("keeps the session when the site does not answer", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({ status: 503, json: { error: "temporarily_unavailable" } }));
    const browser = await signedInBrowser();
    await renderPage(browser);
    expect((await loadSession(browser))?.data).toMatchObject({ accessToken: "at-0", refreshToken: "rt-0" });
  });

  it("keeps the rotated refresh token when the shared state goes away right after the grant", async () => {
    const sharedState = sharedStateDownFromTheGrant(site);
    const browser = await signedInBrowser();
    await renderPage(browser);
    sharedState.recover();
    // The spent rt-0 is gone from the cookie: the next page does not replay it (which would revoke the grant).
    expect((await loadSession(browser))?.data.refreshToken).toBe("rt-1");
  });
});

describe("issue 30: a refresh refused with 400 before a page render", () => {
  it("redirects to the signed-out page that says access was withdrawn, and ends the session", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({ status: 400 }));
    const browser = await signedInBrowser();
    const response = await proxy(new NextRequest(`${TEST_APP_URL}/courses`, { headers: { cookie: browser.header() } }));
    expect(response.status).toBe(303);
    // Sign in leads back to the page the member asked for (a same-origin path, checked again by the signed-out page).
    expect(response.headers.get("location")).toBe(`${TEST_APP_URL}/signed-out?reason=access_withdrawn&returnTo=%2Fcourses`);
    for (const cookie of response.cookies.getAll()) browser.write(cookie.name, cookie.value, { maxAge: cookie.maxAge });
    expect(await loadSession(browser)).toBeNull();
  });
});

describe("the router's own fetches of a page (a Link prefetch, a client-side navigation)", () => {
  // Next.js strips `next-router-prefetch` before the proxy: the browser's Fetch Metadata is what is left.
  const routerFetch = (browser: MemoryJar) =>
    proxy(new NextRequest(`${TEST_APP_URL}/courses`, { headers: { cookie: browser.header(), "sec-fetch-mode": "cors" } }));

  it("never refresh, so a prefetch that meets a withdrawn grant does not end the session in the background", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({ status: 400 }));
    const browser = await signedInBrowser();
    const response = await routerFetch(browser);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
    expect(response.status).toBe(200);
    for (const cookie of response.cookies.getAll()) browser.write(cookie.name, cookie.value, { maxAge: cookie.maxAge });
    expect((await loadSession(browser))?.data).toMatchObject({ refreshToken: "rt-0" });
    // The member's next document load is the one that finds out, and says why.
    const load = await proxy(
      new NextRequest(`${TEST_APP_URL}/courses`, { headers: { cookie: browser.header(), "sec-fetch-mode": "navigate" } }),
    );
    expect(load.headers.get("location")).toBe(`${TEST_APP_URL}/signed-out?reason=access_withdrawn&returnTo=%2Fcourses`);
  });

  it("a document load (Sec-Fetch-Mode: navigate) still refreshes", async () => {
    const browser = await signedInBrowser();
    await proxy(new NextRequest(`${TEST_APP_URL}/courses`, { headers: { cookie: browser.header(), "sec-fetch-mode": "navigate" } }));
    expect(site.callsTo("/api/oauth/token")).toHaveLength(1);
  });
});

describe("a page while the shared state does not answer", () => {
  /** Redis gone: the session's "ended" mark cannot be looked up. */
  class SharedStateDown extends InMemorySharedState {
    override recall(): Promise<string | undefined> {
      return Promise.reject(new SharedStateUnavailableError("Redis did not answer (recall)."));
    }
  }

  it.each([
    ["a document load", { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" }],
    ["the router's fetch of a tab click", { "sec-fetch-dest": "empty", "sec-fetch-mode": "cors" }],
  ])("answers %s 503 with Retry-After, keeps the cookie and asks the site for nothing", async (_, headers) => {
    const browser = await signedInBrowser();
    setSharedStateForTests(new SharedStateDown());
    const response = await proxy(new NextRequest(`${TEST_APP_URL}/courses`, { headers: { cookie: browser.header(), ...headers } }));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe(String(SHARED_STATE_RETRY_AFTER_SECONDS));
    expect(response.cookies.getAll()).toEqual([]);
    expect(site.callsTo("/api/oauth/token")).toHaveLength(0);
  });
});
