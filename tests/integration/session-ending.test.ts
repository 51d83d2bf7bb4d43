import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { POST as embeddedRoute } from "@/app/api/auth/embedded/route";
import { POST as logoutRoute } from "@/app/api/auth/logout/route";
import { POST as revokeRoute } from "@/app/api/auth/revoke/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { openSessionSeal, sealWithSessionSecret } from "@/lib/session/seal";
import { sessionCookieName } from "@/lib/session/session";
import { type RunningSandbox } from "@/sandbox/server";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, SAME_ORIGIN_HEADERS, signInThroughRoutes } from "../support/route-browser";
import { sessionData } from "../support/session-data";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandboxForDashboard();
});
afterAll(async () => sandbox.close());
beforeEach(() => sandbox.resetRequests());

const params = (resource: string) => ({ params: Promise.resolve({ resource }) });
const VERIFIER = "w".repeat(43);

async function bindingFor(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return Buffer.from(digest).toString("base64url");
}

/** A browser holding both session variants: signed in in its own tab, and in the embedded panel through the popup. */
async function browserWithBothSessions(): Promise<RouteBrowser> {
  const browser = new RouteBrowser();
  await signInThroughRoutes(browser);
  const popup = new RouteBrowser();
  const done = await signInThroughRoutes(popup, { login: `/api/auth/login?display=popup&binding=${await bindingFor(VERIFIER)}` });
  const code = new URLSearchParams(new URL(done.headers.get("location")!).hash.slice(1)).get("handoff")!;
  const redeemed = browser.absorb(
    await embeddedRoute(
      browser.request("/api/auth/embedded", {
        method: "POST",
        headers: { ...SAME_ORIGIN_HEADERS, "content-type": "application/json" },
        body: JSON.stringify({ code, verifier: VERIFIER }),
      }),
    ),
  );
  expect(redeemed.status).toBe(200);
  expect(browser.cookies.has(sessionCookieName("top"))).toBe(true);
  expect(browser.cookies.has(sessionCookieName("embedded"))).toBe(true);
  return browser;
}

/** The same browser with only its embedded cookie, as the panel inside the site's page sends it. */
function embeddedOnly(cookies: Map<string, string>): RouteBrowser {
  const frame = new RouteBrowser();
  frame.cookies.set(sessionCookieName("embedded"), cookies.get(sessionCookieName("embedded"))!);
  return frame;
}

describe("sign-out and revocation end every session the browser holds (finding 1)", () => {
  it("Sign out revokes both grants and the embedded cookie stops working too", async () => {
    const browser = await browserWithBothSessions();
    const before = new Map(browser.cookies);
    sandbox.resetRequests();
    const response = browser.absorb(
      await logoutRoute(browser.request("/api/auth/logout", { method: "POST", headers: SAME_ORIGIN_HEADERS })),
    );
    expect(await response.json()).toMatchObject({ signedOut: true, complete: true });
    // Both tokens of each grant: a site may revoke only the token presented (RFC 7009 section 2.1).
    expect(sandbox.requests().filter((entry) => entry.endpoint === "revoke" && entry.status === 200)).toHaveLength(4);
    const frame = embeddedOnly(before);
    expect((await sessionRoute(frame.request("/api/session"))).status).toBe(401);
    expect((await accountRoute(frame.request("/api/account/courses"), params("courses"))).status).toBe(401);
  });

  it("Sign out says complete: false when one of the revocations failed", async () => {
    const browser = await browserWithBothSessions();
    sandbox.setKnobs({ failures: { revoke: { mode: "status", status: 503, times: 1 } } });
    try {
      const response = await logoutRoute(browser.request("/api/auth/logout", { method: "POST", headers: SAME_ORIGIN_HEADERS }));
      expect(await response.json()).toMatchObject({ signedOut: true, complete: false });
    } finally {
      sandbox.setKnobs({ failures: { revoke: null } });
    }
  });

  it("Revoke access revokes both grants (both tokens each) and ends both sessions", async () => {
    const browser = await browserWithBothSessions();
    const before = new Map(browser.cookies);
    sandbox.resetRequests();
    const response = await revokeRoute(browser.request("/api/auth/revoke", { method: "POST", headers: SAME_ORIGIN_HEADERS }));
    expect(response.status).toBe(200);
    expect(sandbox.requests().filter((entry) => entry.endpoint === "revoke" && entry.status === 200)).toHaveLength(4);
    expect((await sessionRoute(embeddedOnly(before).request("/api/session"))).status).toBe(401);
  });
});

describe("a new sign-in writes a fresh session (finding 3, checklist 43)", () => {
  it("carries nothing of a planted cookie into the new session", async () => {
    const browser = new RouteBrowser();
    // A cookie planted before sign-in, sealed with the dashboard's own secret (the strongest fixation there is).
    const planted = await sealWithSessionSecret(
      { ...sessionData({ sid: "planted-sid" }), idTokenNonce: "planted-nonce", planted: "yes" },
      0,
    );
    browser.cookies.set(sessionCookieName("top"), planted);
    await signInThroughRoutes(browser);
    const fresh = await openSessionSeal<Record<string, unknown>>(browser.cookies.get(sessionCookieName("top"))!);
    expect(fresh.sid).not.toBe("planted-sid");
    expect(fresh.idTokenNonce).not.toBe("planted-nonce");
    expect(fresh).not.toHaveProperty("planted");
  });

  it("ends and revokes the session it replaces", async () => {
    const browser = new RouteBrowser();
    await signInThroughRoutes(browser);
    const replaced = new Map(browser.cookies);
    sandbox.resetRequests();
    await signInThroughRoutes(browser);
    // Its refresh and access tokens.
    expect(sandbox.requests().filter((entry) => entry.endpoint === "revoke" && entry.status === 200)).toHaveLength(2);
    const old = new RouteBrowser();
    old.cookies = replaced;
    expect((await sessionRoute(old.request("/api/session"))).status).toBe(401);
    expect((await sessionRoute(browser.request("/api/session"))).status).toBe(200);
  });
});
