import { decodeJwt } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { GET as endSessionRoute } from "@/app/api/auth/end-session/route";
import { POST as logoutRoute } from "@/app/api/auth/logout/route";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { resetConfigForTests } from "@/lib/config";
import { endSessionRedirect, endSessionTicketPath, readEndSessionState } from "@/lib/auth/end-session";
import { sealWithSessionSecret } from "@/lib/session/seal";
import { type RunningSandbox } from "@/sandbox/server";
import { SEEDED_DASHBOARD_CLIENT } from "@/sandbox/seed";

import { captureLog } from "../support/captured-log";
import { TEST_APP_URL } from "../support/env";
import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser as Browser, SAME_ORIGIN_HEADERS, signInThroughRoutes } from "../support/route-browser";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandboxForDashboard();
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  sandbox.setKnobs({ endSession: true, idToken: true, issuerTrailingSlash: false, writesNulls: false });
  resetDiscoveryCacheForTests();
});
afterEach(() => {
  vi.useRealTimers();
  delete process.env.SITE_ISSUER;
  resetConfigForTests();
});

async function signOut(): Promise<{ body: Record<string, unknown>; text: string; response: Response }> {
  const browser = new Browser();
  await signInThroughRoutes(browser, { returnTo: "/" });
  const response = browser.absorb(await logoutRoute(browser.request("/api/auth/logout", { method: "POST", headers: SAME_ORIGIN_HEADERS })));
  const text = await response.text();
  return { body: JSON.parse(text) as Record<string, unknown>, text, response };
}

/** Where the dashboard's end-session path sends the browser: the 303's Location. */
async function followTicket(path: string): Promise<URL> {
  const response = await endSessionRoute(new Browser().request(path));
  expect(response.status).toBe(303);
  expect(response.headers.get("cache-control") ?? "no-store").toBe("no-store");
  return new URL(response.headers.get("location") ?? "");
}

describe("RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0)", () => {
  it.each([
    ["its origin", false],
    ["its origin followed by / (SITE_ISSUER)", true],
  ])(
    "sends the member to the site's end_session_endpoint with id_token_hint, client_id, the registered URI, sealed state: issuer %s",
    async (_, slash) => {
      if (slash) {
        sandbox.setKnobs({ issuerTrailingSlash: true });
        process.env.SITE_ISSUER = `${sandbox.url}/`;
        resetConfigForTests();
      }
      const { body, text, response } = await signOut();
      expect(response.headers.get("clear-site-data")).toBe('"cookies"');
      expect(body).toMatchObject({ signedOut: true, complete: true });
      // The answer reaches the browser's JavaScript: the ID token is in it only sealed (DESIGN.md section 1).
      expect(String(body.endSessionUrl)).toMatch(/^\/api\/auth\/end-session\?ticket=[^&]+$/);
      expect(text).not.toMatch(/eyJ[\w-]+\.eyJ/);
      const url = await followTicket(String(body.endSessionUrl));
      expect(`${url.origin}${url.pathname}`).toBe(`${sandbox.url}/oauth/logout`);
      expect(url.searchParams.get("client_id")).toBe(SEEDED_DASHBOARD_CLIENT.clientId);
      expect(url.searchParams.get("post_logout_redirect_uri")).toBe(`${TEST_APP_URL}/signed-out`);
      const hint = decodeJwt(url.searchParams.get("id_token_hint") ?? "");
      expect(hint).toMatchObject({
        iss: slash ? `${sandbox.url}/` : sandbox.url,
        aud: SEEDED_DASHBOARD_CLIENT.clientId,
        sub: "member_7c1e90",
      });
      const state = url.searchParams.get("state") ?? "";
      expect(await readEndSessionState(state)).toBe("signed_out");
      // The site accepts it and sends the browser back to the signed-out page with the same state.
      const atSite = await fetch(url, { redirect: "manual" });
      expect(atSite.status).toBe(303);
      const back = new URL(atSite.headers.get("location") ?? "");
      expect(`${back.origin}${back.pathname}`).toBe(`${TEST_APP_URL}/signed-out`);
      expect(back.searchParams.get("state")).toBe(state);
    },
  );

  it("sends no id_token_hint when the session has no id_token", async () => {
    sandbox.setKnobs({ idToken: false });
    const { body } = await signOut();
    const url = await followTicket(String(body.endSessionUrl));
    expect(url.searchParams.has("id_token_hint")).toBe(false);
    expect(url.searchParams.get("client_id")).toBe(SEEDED_DASHBOARD_CLIENT.clientId);
  });

  it.each([
    { lists: "leaves it out", writesNulls: false },
    { lists: "writes it null", writesNulls: true },
  ])(
    "sends the member nowhere when the site's discovery $lists (no end_session_endpoint), read afresh at sign-out",
    async ({ writesNulls }) => {
      const browser = new Browser();
      await signInThroughRoutes(browser, { returnTo: "/" });
      // The site stops offering it after the dashboard discovered it: the sign-out reads it again.
      sandbox.setKnobs({ endSession: false, writesNulls });
      const request = browser.request("/api/auth/logout", { method: "POST", headers: SAME_ORIGIN_HEADERS });
      const response = browser.absorb(await logoutRoute(request));
      expect(await response.json()).toEqual({ signedOut: true, complete: true });
    },
  );

  it("believes only a state it made for a sign-out, unchanged and fresh (checklist case 63)", async () => {
    const state = new URL((await endSessionRedirect(undefined, "signed_out_locally")) ?? "").searchParams.get("state") ?? "";
    expect(await readEndSessionState(state)).toBe("signed_out_locally");
    const changed = `${state.slice(0, -4)}${state.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    for (const bad of [
      undefined,
      "",
      changed,
      "x".repeat(3000),
      await sealWithSessionSecret({ purpose: "login", reason: "signed_out" }, 60),
      // One of ours, but longer than any state the dashboard makes: refused before it is opened.
      await sealWithSessionSecret({ purpose: "end_session", reason: "signed_out", padding: "x".repeat(2_000) }, 600),
    ]) {
      expect(await readEndSessionState(bad)).toBeNull();
    }
    // Ten minutes at the site's sign-out page at most.
    vi.useFakeTimers({ now: Date.now() + 11 * 60_000, toFake: ["Date"] });
    expect(await readEndSessionState(state)).toBeNull();
  });

  it("follows only a ticket it made, unchanged, under a minute old: else the signed-out page, claiming nothing of the site", async () => {
    const path = await endSessionTicketPath("https://school.example.com/oauth/logout?id_token_hint=x");
    expect((await followTicket(path)).href).toBe("https://school.example.com/oauth/logout?id_token_hint=x");
    const ticket = new URL(path, TEST_APP_URL).searchParams.get("ticket") ?? "";
    const changed = `${ticket.slice(0, -4)}${ticket.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    const notATicket = await sealWithSessionSecret({ purpose: "end_session", url: "https://evil.example/" }, 60);
    captureLog();
    for (const bad of [
      "/api/auth/end-session",
      "/api/auth/end-session?ticket=",
      `/api/auth/end-session?ticket=${encodeURIComponent(changed)}`,
      `/api/auth/end-session?ticket=${encodeURIComponent(notATicket)}`,
      `/api/auth/end-session?ticket=${"x".repeat(9000)}`,
      // A ticket of ours, but longer than any the dashboard makes: refused before it is opened.
      await endSessionTicketPath(`https://school.example.com/oauth/logout?padding=${"x".repeat(9_000)}`),
    ]) {
      expect((await followTicket(bad)).href, bad).toBe(`${TEST_APP_URL}/signed-out?reason=signed_out`);
    }
    vi.useFakeTimers({ now: Date.now() + 2 * 60_000, toFake: ["Date"] });
    expect((await followTicket(path)).href).toBe(`${TEST_APP_URL}/signed-out?reason=signed_out`);
  });
});
