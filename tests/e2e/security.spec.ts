import { expect, test } from "./test";

import { signOutFromHeaderMenu } from "../journeys/member-journey";
import {
  expectNeverFramed,
  expectNoToken,
  expectPageSecurityHeaders,
  expectPrerenderedPageSecurityHeaders,
  runInjectedScripts,
} from "../journeys/security";
import { staticFilesNamedBy } from "../support/static-files";

import { openSettingsFromMenu } from "./account-menu";
import { playwrightDriver } from "./playwright-driver";
import { APP_URL, markSiteRequests, resetSandbox, signIn, SITE_URL } from "./support";

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
  // Each page request has an id, kept when well formed (README, "Logs"), as every data request has.
  expect(first.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  expect(second.headers()["x-request-id"]).not.toBe(first.headers()["x-request-id"]);
  expect((await request.get("/courses", { headers: { "x-request-id": "lb-4711" } })).headers()["x-request-id"]).toBe("lb-4711");
});

test("account answers are personal: never stored or framed, served by Next.js's router with its headers, large ones compressed", async ({
  page,
  request,
}) => {
  const expectPersonal = (headers: Record<string, string>) => {
    expect(headers["cache-control"]).toBe("no-store");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expectNeverFramed(headers);
  };
  const anonymous = await request.get("/api/account/courses");
  expect(anonymous.status()).toBe(401);
  expectPersonal(anonymous.headers());

  await signIn(page, "maya@example.com");
  for (const path of [
    "/api/account/overview",
    "/api/account/courses",
    "/api/account/orders",
    "/api/account/events",
    "/api/account/connections",
    "/api/account/nope",
    "/api/account/courses?after=",
  ]) {
    // One path through the code: every answer, the first and the later ones, is routed by Next.js (whose Vary names rsc).
    for (const attempt of [1, 2]) {
      const response = await page.request.get(path);
      expectPersonal(response.headers());
      expect(response.headers().vary ?? "", `${path} #${attempt}`).toMatch(/\brsc\b/);
    }
  }

  // Kai's 130 enrollments are many KiB: Next.js compresses them for the member's connection, still never stored.
  await page.context().clearCookies();
  await signIn(page, "kai@example.com");
  const large = await page.request.get("/api/account/courses", { headers: { "accept-encoding": "gzip" } });
  expect(large.headers()["cache-control"]).toBe("no-store");
  expect(large.headers()["content-encoding"]).toBe("gzip");
  expect((await large.json()) as { items: unknown[] }).toMatchObject({ items: expect.any(Array) });
});

// The operator's guide (README, step 6) tells a TLS proxy or CDN to cache /_next/static/: what it keeps
// must be the same for every member and never personal, while the pages that name those files stay no-store.
test("the static files a page names may be kept a year by a cache in front: public, immutable, the same without a session", async ({
  page,
  request,
}) => {
  await signIn(page, "maya@example.com");
  const courses = await page.request.get("/courses");
  expect(courses.headers()["cache-control"]).toBe("no-store");
  const files = staticFilesNamedBy(await courses.text());
  for (const kind of [".css", ".js", ".woff2"])
    expect(
      files.some((file) => file.endsWith(kind)),
      kind,
    ).toBe(true);
  for (const file of files) {
    const signedIn = await page.request.get(file);
    expect(signedIn.status(), file).toBe(200);
    expect(signedIn.headers()["cache-control"], file).toBe("public, max-age=31536000, immutable");
    expect(signedIn.headers()["set-cookie"], file).toBeUndefined();
    const anonymous = await request.get(file);
    expect((await anonymous.body()).equals(await signedIn.body()), file).toBe(true);
  }
});

test("sign-in routes can never be framed", async ({ request }) => {
  for (const path of ["/api/auth/login", "/api/auth/callback", "/sign-in-problem?code=login_expired"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expectNeverFramed(response.headers());
  }
});

// Checklist 16: anyone can link a member to the sign-in problem page with words of their own in its address
// (a phishing text, a phone number); only the codes the dashboard itself sends get words, and none of the
// address's text is shown (OWASP ASVS 5 V16.5.1: no text from elsewhere in an error message).
test("the sign-in problem page shows our words for our codes only, never text from its address", async ({ page }) => {
  const forged = "Account locked: call 555-0100";
  await page.goto(`/sign-in-problem?${new URLSearchParams({ code: forged, detail: forged, binding: forged }).toString()}`);
  const main = page.getByRole("main");
  await expect(main.getByRole("alert")).toHaveText("Something went wrong on our side. Please try again.");
  await expect(main).toContainText("Reference: unexpected");
  await expect(main).not.toContainText("555-0100");
  // One of ours, for contrast: its own words and its code as the reference.
  await page.goto("/sign-in-problem?code=login_expired");
  await expect(main.getByRole("alert")).toHaveText("This sign-in attempt expired or was started in another browser. Please start again.");
  await expect(main).toContainText("Reference: login_expired");
});

test("encoded and trailing-slash spellings of never-framed routes are never framed either", async ({ request }) => {
  for (const path of [
    "/settings/revoke/",
    "/settings/%72evoke",
    "/auth/popup-done/",
    "/auth/%70opup-done",
    "/sign-in-problem/?code=login_expired",
    "/api/auth/login/",
    "/api/auth/%6cogin",
    "/api/auth/callback/",
  ]) {
    for (const maxRedirects of [0, 5]) {
      const response = await request.get(path, { maxRedirects });
      expect(response.status(), path).toBeLessThan(500);
      // A redirect shows nothing to frame; whatever it leads to is checked with maxRedirects 5.
      if (response.status() >= 300 && response.status() < 400) continue;
      // Sign-in leads on to the site's own page: only the dashboard's answers are ours to check.
      if (!response.url().startsWith(APP_URL)) continue;
      expect(response.headers()["content-security-policy"], path).toContain("frame-ancestors 'none'");
      expect(response.headers()["x-frame-options"], path).toBe("DENY");
    }
  }
});

test("the browser never sees a token: not in HTML, RSC payloads, API answers or cookies, up to and after Sign out", async ({
  page,
  context,
}) => {
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
  expect(await page.evaluate(() => document.cookie)).not.toContain("dash_session");
  // Sign out sends the member on to the site's end-session endpoint with the ID token as its hint: by a redirect, never
  // through an answer. The page leaves as the logout answer arrives, so that answer is read where it passes.
  await page.route("**/api/auth/logout", async (route) => {
    const response = await route.fetch();
    bodies.push(await response.text());
    await route.fulfill({ response });
  });
  await signOutFromHeaderMenu(playwrightDriver(page), "Maya Chen");
  expect(bodies.length).toBeGreaterThan(3);
  expect(bodies.some((body) => body.includes('"endSessionUrl"'))).toBe(true);
  expectNoToken(bodies.join("\n"));
});

test("a cross-site POST to logout or revoke changes nothing", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const siteRequestsSinceSignIn = await markSiteRequests(page);
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
  expect((await siteRequestsSinceSignIn()).filter((entry) => entry.endpoint === "revoke")).toHaveLength(0);
});

test("Sign out revokes this sign-in at the site and clears the dashboard's cookies; Settings tells it apart from Revoke access", async ({
  page,
  context,
}) => {
  await signIn(page, "maya@example.com");
  await openSettingsFromMenu(page);
  await expect(page.getByText(/^Sign out ends your sign-in in this browser, and asks the site to end its own sign-in too/)).toBeVisible();
  await expect(
    page.getByText("Revoke access withdraws this app's access to your account at the site, then signs you out here."),
  ).toBeVisible();
  // Only what Sign out asks of the site (markSiteRequests).
  const siteRequestsSinceSignOut = await markSiteRequests(page);
  const logout = page.waitForResponse((response) => response.url() === `${APP_URL}/api/auth/logout`);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  expect((await (await logout).allHeaders())["clear-site-data"]).toBe('"cookies"');
  // Back from the site's end-session endpoint (RP-Initiated Logout) with the state the dashboard sealed.
  await expect(page).toHaveURL(/\/signed-out\?state=/);
  await expect(page.getByText("You are signed out.")).toBeVisible();
  expect((await context.cookies(APP_URL)).filter((cookie) => cookie.name.includes("dash_"))).toEqual([]);
  // Its refresh token, then its access token (RFC 7009 section 2.1).
  expect((await siteRequestsSinceSignOut()).filter((entry) => entry.endpoint === "revoke" && entry.status === 200)).toHaveLength(2);
});

test("x-middleware-subrequest cannot skip the proxy: pages keep their CSP and data routes still check the session", async ({ request }) => {
  for (const value of [
    "middleware:middleware:middleware:middleware:middleware",
    "proxy:proxy:proxy:proxy:proxy",
    "src/middleware:nowaf:src/middleware:src/middleware:src/middleware",
  ]) {
    const page = await request.get("/settings", { headers: { "x-middleware-subrequest": value } });
    expect(page.status()).toBeLessThan(500);
    expect(page.headers()["content-security-policy"]).toMatch(/'nonce-[^']+'/);
    expect(page.headers()["cache-control"]).toBe("no-store");
    const data = await request.get("/api/account/courses", { headers: { "x-middleware-subrequest": value } });
    expect(data.status()).toBe(401);
  }
});

test("the prerendered signed-out page: its scripts by hash, nothing injected runs, no copy served by its own address", async ({
  page,
  request,
}) => {
  const answer = page.waitForResponse((response) => response.url() === `${APP_URL}/signed-out?reason=signed_out&returnTo=%2Fcourses`);
  await page.goto("/signed-out?reason=signed_out&returnTo=%2Fcourses");
  expectPrerenderedPageSecurityHeaders(await (await answer).allHeaders(), APP_URL, SITE_URL);
  // Hydrated under that policy: the site's name comes from /api/site, the way back from the address.
  await expect(page.getByText("You are still signed in at Demo Academy (sandbox).")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/api/auth/login?returnTo=%2Fcourses");
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && message.text().includes("Content Security Policy")) violations.push(message.text());
  });
  expect(await page.evaluate(runInjectedScripts)).toEqual([]);
  expect(violations.length).toBeGreaterThanOrEqual(2);
  // Checklist 63: no address shows the "signed out at the site too" copy without the sealed state.
  for (const path of ["/signed-out/en/page/signed_out/ended", "/signed-out/%65n/page/signed_out/ended"]) {
    const direct = await request.get(path, { maxRedirects: 0 });
    expect(direct.status(), path).toBe(404);
    expect(await direct.text(), path).not.toContain("also signed out of");
  }
});

test("the signed-out page still warns of the site's session when GET /api/site fails: it says the site, without a link", async ({
  page,
}) => {
  // The prerendered page learns the site's name from /api/site; if that fails, the member may still be
  // signed in at the site all the same, and a shared computer needs the warning more than the name.
  await page.route("**/api/site", (route) => route.fulfill({ status: 503, contentType: "application/json", body: "{}" }));
  const failed = page.waitForResponse((response) => response.url().endsWith("/api/site"));
  await page.goto("/signed-out?reason=signed_out");
  expect((await failed).status()).toBe(503);
  await expect(
    page.getByText("You are still signed in at the site. On a shared computer, open the site and sign out there too."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: /^Open / })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
});
