import { expect, test } from "@playwright/test";

import { expectNeverFramed, expectNoToken, expectPageSecurityHeaders } from "../journeys/security";

import { APP_URL, resetSandbox, signIn, SITE_URL } from "./support";

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

test("every page carries a per-request CSP nonce, framing limits and no-store", async ({ request }) => {
  const first = await request.get("/");
  const second = await request.get("/");
  // The same expectations as the Firefox suite's (tests/journeys/security.ts).
  const nonce = expectPageSecurityHeaders(first.headers(), SITE_URL);
  expect(second.headers()["content-security-policy"]).not.toContain(nonce);
  expect(await first.text()).toContain(`nonce="${nonce}"`);
});

test("sign-in routes can never be framed", async ({ request }) => {
  for (const path of ["/api/auth/login", "/api/auth/callback", "/sign-in-problem?code=login_expired"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expectNeverFramed(response.headers());
  }
});

test("the browser never sees a token: not in HTML, RSC payloads, API answers or cookies", async ({ page, context }) => {
  const bodies: string[] = [];
  page.on("response", async (response) => {
    if (response.url().startsWith(APP_URL)) bodies.push(await response.text().catch(() => ""));
  });
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await page.getByRole("navigation").getByRole("link", { name: "Courses", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Courses", level: 1 })).toBeVisible();
  const introspectable = (await (await page.request.get(`${SITE_URL}/__sandbox/requests`)).json()) as { endpoint: string }[];
  expect(introspectable.length).toBeGreaterThan(0);
  const cookies = await context.cookies(APP_URL);
  const session = cookies.find((cookie) => cookie.name.startsWith("dash_session"));
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");
  expect(bodies.length).toBeGreaterThan(3);
  expectNoToken(bodies.join("\n"));
  expect(await page.evaluate(() => document.cookie)).not.toContain("dash_session");
});

test("a cross-site POST to logout or revoke changes nothing", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  // From a page of another site, a form post and a fetch both try to end the session.
  await page.goto(`${SITE_URL}/`);
  const statuses = await page.evaluate(async (appUrl) => {
    const results: number[] = [];
    for (const path of ["/api/auth/logout", "/api/auth/revoke"]) {
      const response = await fetch(`${appUrl}${path}`, { method: "POST", mode: "no-cors", credentials: "include" }).catch(() => null);
      results.push(response ? response.status : -1);
    }
    return results;
  }, APP_URL);
  expect(statuses).toHaveLength(2);
  // Even a same-site request without the custom header is refused.
  const withoutHeader = await page.request.post(`${APP_URL}/api/auth/logout`, { headers: { origin: APP_URL } });
  expect(withoutHeader.status()).toBe(403);
  const session = await page.request.get(`${APP_URL}/api/session`);
  expect(session.status()).toBe(200);
  const log = (await (await page.request.get(`${SITE_URL}/__sandbox/requests`)).json()) as { endpoint: string }[];
  expect(log.filter((entry) => entry.endpoint === "revoke")).toHaveLength(0);
});
