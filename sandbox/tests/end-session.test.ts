import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SEEDED_DASHBOARD_CLIENT } from "../seed";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { csrfTokenOf, findForm, SandboxBrowser } from "../testing";
import { obtainTokens } from "./helpers";

let sandbox: RunningSandbox;
const POST_LOGOUT = "http://localhost:3000/signed-out";

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.setKnobs({ endSession: true, idToken: true, localizedSignIn: false });
});

function logoutUrl(params: Record<string, string | undefined>): string {
  const url = new URL("/oauth/logout", sandbox.url);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.pathname + url.search;
}

/** Whether the browser's site session is still open: the admin area lets olivia in only while it is. */
async function signedInAtSite(browser: SandboxBrowser): Promise<boolean> {
  const response = await browser.get("/admin");
  await response.body?.cancel();
  return response.status === 200;
}

describe("end-session endpoint (OpenID Connect RP-Initiated Logout 1.0)", () => {
  it("is listed in the OpenID configuration, and not when the knob is off", async () => {
    const on = (await (await fetch(`${sandbox.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(on.end_session_endpoint).toBe(`${sandbox.url}/oauth/logout`);
    sandbox.setKnobs({ endSession: false });
    const off = (await (await fetch(`${sandbox.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(off).not.toHaveProperty("end_session_endpoint");
    expect((await fetch(`${sandbox.url}/oauth/logout`)).status).toBe(404);
  });

  it("ends the member's site session for a valid id_token_hint and returns to the registered URI with state", async () => {
    const browser = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    const { idToken } = await obtainTokens(sandbox, { email: "olivia@example.com" });
    expect(await signedInAtSite(browser)).toBe(true);
    const response = await browser.get(
      logoutUrl({
        id_token_hint: idToken,
        client_id: SEEDED_DASHBOARD_CLIENT.clientId,
        post_logout_redirect_uri: POST_LOGOUT,
        state: "s-1",
      }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${POST_LOGOUT}?state=s-1`);
    expect(await signedInAtSite(browser)).toBe(false);
  });

  it("asks the member first without an id_token_hint (or for another member's), and ends the session only when told", async () => {
    const browser = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    const { idToken: mayasToken } = await obtainTokens(sandbox, { email: "maya@example.com" });
    for (const hint of [undefined, mayasToken]) {
      const page = await browser.get(
        logoutUrl({
          id_token_hint: hint,
          client_id: SEEDED_DASHBOARD_CLIENT.clientId,
          post_logout_redirect_uri: POST_LOGOUT,
          state: "s-2",
        }),
      );
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain("Sign out of Demo Academy?");
      expect(await signedInAtSite(browser)).toBe(true);
      const csrf = csrfTokenOf(text) ?? "";
      const fields = { client_id: SEEDED_DASHBOARD_CLIENT.clientId, post_logout_redirect_uri: POST_LOGOUT, state: "s-2" };
      const stay = await browser.post("/oauth/logout/confirm", { ...fields, csrf_token: csrf, decision: "stay" });
      expect(stay.headers.get("location")).toBe(`${POST_LOGOUT}?state=s-2`);
      expect(await signedInAtSite(browser)).toBe(true);
      const forged = await browser.post("/oauth/logout/confirm", { ...fields, csrf_token: "forged", decision: "sign_out" });
      expect(forged.status).toBe(403);
      expect(await signedInAtSite(browser)).toBe(true);
    }
    const csrf = csrfTokenOf(await (await browser.get(logoutUrl({ client_id: SEEDED_DASHBOARD_CLIENT.clientId }))).text()) ?? "";
    const leave = await browser.post("/oauth/logout/confirm", {
      client_id: SEEDED_DASHBOARD_CLIENT.clientId,
      csrf_token: csrf,
      decision: "sign_out",
    });
    expect(leave.status).toBe(200);
    expect(await leave.text()).toContain("You are signed out of Demo Academy");
    expect(await signedInAtSite(browser)).toBe(false);
  });

  it("refuses an unregistered post_logout_redirect_uri, a forged hint and a client_id that contradicts the hint", async () => {
    const browser = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    const { idToken } = await obtainTokens(sandbox, { email: "olivia@example.com" });
    const forged = `${idToken!.slice(0, idToken!.lastIndexOf(".") + 1)}AAAA`;
    const refused = [
      { id_token_hint: idToken, post_logout_redirect_uri: "https://evil.example/signed-out" },
      { client_id: SEEDED_DASHBOARD_CLIENT.clientId, post_logout_redirect_uri: "http://localhost:3000/signed-out/" },
      { post_logout_redirect_uri: POST_LOGOUT },
      { id_token_hint: forged, post_logout_redirect_uri: POST_LOGOUT },
      { id_token_hint: idToken, client_id: "another-client", post_logout_redirect_uri: POST_LOGOUT },
    ];
    for (const params of refused) {
      const response = await browser.get(logoutUrl(params));
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("Sign-out request refused");
    }
    expect(await signedInAtSite(browser)).toBe(true);
  });

  it("with localizedSignIn, asks and says it is done in the first of ui_locales it speaks; without, in English", async () => {
    sandbox.setKnobs({ localizedSignIn: true });
    const browser = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    const question = await (await browser.get(logoutUrl({ client_id: SEEDED_DASHBOARD_CLIENT.clientId, ui_locales: "zh-TW en" }))).text();
    expect(question).toContain('<html lang="zh-TW">');
    expect(question).toContain("<h1>要登出 Demo Academy 嗎？</h1>");
    expect(question).toContain('value="stay" class="secondary">保持登入</button>');
    // The answer page keeps the language the question was asked in: the form carries ui_locales.
    const form = findForm(question, "/oauth/logout/confirm")!;
    const leave = await browser.post(form.action, { ...form.fields, decision: "sign_out" });
    expect(await leave.text()).toContain("<h1>你已登出 Demo Academy</h1>");
    sandbox.setKnobs({ localizedSignIn: false });
    const again = await SandboxBrowser.signIn(sandbox.url, "olivia@example.com");
    const english = await (await again.get(logoutUrl({ client_id: SEEDED_DASHBOARD_CLIENT.clientId, ui_locales: "zh-TW" }))).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toContain("<h1>Sign out of Demo Academy?</h1>");
  });
});
