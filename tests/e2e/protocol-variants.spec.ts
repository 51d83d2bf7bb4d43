import { randomBytes } from "node:crypto";

import { expect, test, type Page } from "./test";

import { SEEDED_DASHBOARD_CLIENT } from "../../sandbox/seed";
import { startSandbox, type KnobsPatch, type RunningSandbox } from "../../sandbox/server";
import { startDashboardInstance, type DashboardInstance } from "../support/dashboard-instances";
import { freePort } from "../support/free-port";
import { untilRenewalIsDue } from "../support/renewal-wait";

import { HOST_PAGE, hydrated, lineTexts, markSiteRequests, postSandboxControl, resetSandbox, signIn } from "./support";

/*
 * Issue 30 in Chromium. With the shared app: withdrawn access (a refresh refused with an empty 400), a
 * site that keeps its refresh token, an Account API that refuses tokens with a GraphQL error, and partial
 * consent. With a dashboard of its own per setting
 * (discovery is cached for ten minutes, so a knob that changes discovery needs a fresh process): PAR
 * required, DPoP required with a changing nonce, both, and OpenID-only discovery: sign in, every page,
 * revoke; with PAR, the address bar never holds the authorization parameters.
 */

test.describe.configure({ mode: "serial" });

/**
 * Access tokens of 10 s, which the dashboard renews 5 s after they are issued (half their life,
 * lib/auth/token-times.ts accessTokenRenewalTime); untilRenewalIsDue waits for that, since the dashboard's
 * clock is real. A view that starts just before its token is due still has 5 s before the token lapses.
 */
const ACCESS_TOKEN_TTL_SECONDS = 10;

test.describe("with the shared app", () => {
  test.beforeEach(async ({ page }) => {
    await resetSandbox(page);
  });
  // The specs that run after this one share the sandbox: none of these knobs may outlive the test.
  test.afterEach(async ({ page }) => {
    await resetSandbox(page);
  });

  // Two ways other providers refuse a renewal: 400 with no body, and (GitHub's OAuth apps) 200 with the error body.
  for (const { refusal, knobs } of [
    { refusal: "an empty 400", knobs: { refreshRefusalWithoutBody: true } },
    { refusal: "200 and invalid_grant", knobs: { tokenErrorsWith200: true } },
  ]) {
    test(`withdrawn access, refused with ${refusal}: signed out with that reason`, async ({ page }) => {
      await postSandboxControl(page, "/__sandbox/knobs", { accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS, ...knobs });
      await signIn(page, "maya@example.com");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      // The member's token is due for renewal: their next request asks the site.
      await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
      await postSandboxControl(page, "/__sandbox/withdraw-access", { email: "maya@example.com" });
      // The page's router prefetches its links in the background, and one may reach the dashboard before the
      // member's next page view: it must not end the session there and lose the reason (proxy.ts). Made
      // deterministic here: the router's prefetch request, as it sends it, before the next page view.
      const prefetch = await page.evaluate(async () => {
        const response = await fetch("/courses?_rsc=prefetch", { headers: { rsc: "1", "next-router-prefetch": "1" } });
        return response.status;
      });
      expect(prefetch).toBe(200);
      await expectSignedOutAsWithdrawn(page, "/courses");
      await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
      await page.goto("/courses");
      await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    });
  }

  test("a site that keeps its refresh token: pages load as views renew; withdrawn access says so", async ({ page }) => {
    // 10-second access tokens: views renew them, with the one refresh token the site keeps.
    await postSandboxControl(page, "/__sandbox/knobs", { accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS, refreshWithoutRotation: true });
    await signIn(page, "maya@example.com");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
    await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    await expectEveryPage(page, "");
    await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    await postSandboxControl(page, "/__sandbox/withdraw-access", { email: "maya@example.com" });
    await expectSignedOutAsWithdrawn(page, "/courses");
  });

  test("an Account API that refuses a token with a GraphQL error: a token it dropped early is renewed; withdrawn access says so", async ({
    page,
  }) => {
    // 200 with an UNAUTHENTICATED error, as Apollo Server answers: no 401, no challenge.
    await postSandboxControl(page, "/__sandbox/knobs", { accountApiTokenRefusal: "graphql_200" });
    await signIn(page, "maya@example.com");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
    // The site's clock passes the access token's two hours: the dashboard still holds it for good.
    await postSandboxControl(page, "/__sandbox/knobs", { clockOffsetMs: 7_300_000 });
    await page.goto("/courses");
    await expect(page.getByRole("link", { name: /^Resume/ }).first()).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveCount(0);
    await expectEveryPage(page, "");
    await postSandboxControl(page, "/__sandbox/withdraw-access", { email: "maya@example.com" });
    await expectSignedOutAsWithdrawn(page, "/orders");
  });

  test("a site whose answers come compressed, in gzip and then in br: every page, as views renew", async ({ page }) => {
    // 10-second access tokens: views renew them, their token answers compressed too.
    await postSandboxControl(page, "/__sandbox/knobs", { accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS, contentCoding: "gzip" });
    await signIn(page, "maya@example.com");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
    for (const coding of ["gzip", "br"]) {
      await postSandboxControl(page, "/__sandbox/knobs", { contentCoding: coding });
      const siteRequests = await markSiteRequests(page);
      await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
      await expectEveryPage(page, "");
      const asked = async () => (await siteRequests()).filter((entry) => ["token", "graphql"].includes(entry.endpoint));
      // A renewal the last page's router started in the background may still be on its way (status 0 until answered).
      await expect.poll(async () => (await asked()).filter((entry) => entry.status === 0).length).toBe(0);
      const answers = await asked();
      expect(answers.length).toBeGreaterThanOrEqual(4);
      // The first view came with the token due: a renewal is among them.
      expect(answers.filter((entry) => entry.endpoint === "token").length).toBeGreaterThanOrEqual(1);
      expect(answers.filter((entry) => entry.status !== 200 || entry.contentCoding !== coding)).toEqual([]);
    }
  });

  test("an id_token naming the member by sub alone, and roles in another order in UserInfo: a member with three roles signs in", async ({
    page,
  }) => {
    await postSandboxControl(page, "/__sandbox/knobs", { idTokenSubjectOnly: true, userInfoRolesReordered: true });
    await signIn(page, "olivia@example.com");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Olivia");
    await expect(page.getByRole("navigation", { name: "Account" }).getByRole("button", { name: /Olivia/ })).toBeVisible();
  });

  test("partial consent without account:read names the permission and offers to sign in again", async ({ page }) => {
    await postSandboxControl(page, "/__sandbox/knobs", { partialConsent: true });
    await page.goto("/");
    await page.getByRole("link", { name: "Sign in" }).click();
    await allowWithout(page, "ben@example.com", /enrolled courses/);
    await expect(page).toHaveURL(/\/sign-in-problem\?code=scope_not_granted/);
    await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toContainText("You did not allow a permission the dashboard needs");
    await expect(page.getByText("(account:read)")).toBeVisible();
    await expect(page.getByText(/security|safety/i)).toHaveCount(0);
    await page.getByRole("link", { name: "Sign in again and allow it" }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(/Hello|Overview/);
  });

  test("partial consent in the embedded panel's popup: signing in again from the popup still fills the panel", async ({ page }) => {
    await postSandboxControl(page, "/__sandbox/knobs", { partialConsent: true });
    await page.goto(HOST_PAGE);
    const frame = page.frameLocator('iframe[title="Member dashboard"]');
    const panelSignIn = frame.getByRole("link", { name: "Sign in" });
    await hydrated(panelSignIn);
    const popupPromise = page.waitForEvent("popup");
    await panelSignIn.click();
    const popup = await popupPromise;
    await allowWithout(popup, "ben@example.com", /enrolled courses/);
    await expect(popup).toHaveURL(/\/sign-in-problem\?code=scope_not_granted/);
    await expect(popup.getByText("(account:read)")).toBeVisible();
    // The dashboard is the panel behind the popup: the way back is closing it, not a dashboard inside the popup.
    await expect(popup.getByRole("button", { name: "Close this window" })).toBeVisible();
    await expect(popup.getByRole("link", { name: "Back to the dashboard" })).toHaveCount(0);
    // The popup's own retry keeps it the panel's sign-in: the panel fills, the popup closes.
    const closed = popup.waitForEvent("close");
    await popup.getByRole("link", { name: "Sign in again and allow it" }).click();
    await popup.getByRole("button", { name: "Allow" }).click();
    await closed;
    await expect(frame.getByRole("heading", { level: 1 })).toContainText(/Hello|Overview/);
  });

  // writesNulls: a site whose serializer writes every field, so the id_token and UserInfo say `"email": null`.
  for (const writesNulls of [false, true]) {
    test(`partial consent without email signs in, no alarm${writesNulls ? ", at a site that writes null for it" : ""}`, async ({
      page,
    }) => {
      await postSandboxControl(page, "/__sandbox/knobs", { partialConsent: true, writesNulls });
      await page.goto("/");
      await page.getByRole("link", { name: "Sign in" }).click();
      await allowWithout(page, "maya@example.com", /email address/);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(/Hello/);
      await page.goto("/courses");
      await expect(page.getByRole("link", { name: /^Resume/ }).first()).toBeVisible();
    });
  }
});

/** Issue 30's screens, and a busy site's, as a student on a 320 px phone reads them, in English and Traditional Chinese. */
const SCREENS = [
  {
    path: "/sign-in-problem?code=scope_not_granted&detail=account%3Aread%20email",
    en: "You did not allow permissions the dashboard needs",
    zh: "你沒有允許儀表板需要的幾項權限",
    link: { en: "Sign in again and allow them", zh: "重新登入並允許這些權限" },
  },
  { path: "/sign-in-problem?code=pushed_request_failed", en: "did not accept the sign-in request", zh: "網站沒有接受這次登入請求" },
  // A site that limits how often it answers, and the dashboard's own limit: how long to wait, when it is known.
  {
    path: "/sign-in-problem?code=site_unavailable&detail=site_busy&retryAfter=20",
    en: "The site is busy right now and could not complete the sign-in. Please try again in 20 seconds.",
    zh: "網站目前忙碌中，無法完成登入，請於 20 秒後再試。",
  },
  {
    path: "/sign-in-problem?code=pushed_request_failed&detail=site_busy&retryAfter=86401",
    en: "The site is busy right now and could not complete the sign-in. Please try again in a moment.",
    zh: "網站目前忙碌中，無法完成登入，請稍後再試。",
  },
  // A site down for a while that said when it is back (503 with Retry-After), and one that did not.
  {
    path: "/sign-in-problem?code=site_unavailable&detail=503&retryAfter=600",
    en: "The site is not available right now, so the sign-in could not complete. Please try again in 10 minutes.",
    zh: "網站目前無法使用，因此無法完成登入，請於 10 分鐘後再試。",
  },
  { path: "/sign-in-problem?code=site_unavailable&detail=503", en: "did not answer in time", zh: "網站沒有及時回應" },
  {
    path: "/sign-in-problem?code=rate_limited&detail=client&retryAfter=3600",
    en: "Too many sign-in attempts from here. Please try again in 60 minutes.",
    zh: "這裡的登入嘗試次數過多，請於 60 分鐘後再試。",
  },
  { path: "/sign-in-problem?code=rate_limited&retryAfter=%3Cb%3E9", en: "Please wait a moment and try again.", zh: "請稍候再試。" },
  { path: "/signed-out?reason=access_withdrawn", en: "it was withdrawn at the site, or it expired", zh: "權限已在網站上被收回" },
  { path: "/signed-out?reason=expired", en: "Your session ended", zh: "你的登入階段已結束" },
];

for (const locale of ["en", "zh-TW"] as const) {
  test(`issue 30's screens at 320 px in ${locale}: nothing cut off, one language, one form of address`, async ({ browser }) => {
    const context = await browser.newContext({ locale, viewport: { width: 320, height: 800 } });
    const page = await context.newPage();
    try {
      for (const screen of SCREENS) {
        await page.goto(screen.path);
        const main = page.getByRole("main");
        await expect(main, screen.path).toContainText(locale === "en" ? screen.en : screen.zh);
        if (screen.link) await expect(main.getByRole("link", { name: locale === "en" ? screen.link.en : screen.link.zh })).toBeVisible();
        // Opened at the top level (not the panel's popup), the way back is the dashboard itself.
        if (screen.path.startsWith("/sign-in-problem")) {
          await expect(main.getByRole("link", { name: locale === "en" ? "Back to the dashboard" : "回到儀表板" })).toBeVisible();
          await expect(main.getByRole("button", { name: locale === "en" ? "Close this window" : "關閉這個視窗" })).toHaveCount(0);
        }
        // Nothing wider than the phone: no sideways scrolling, no text cut off at the edge.
        expect(await page.evaluate(() => document.documentElement.scrollWidth), screen.path).toBeLessThanOrEqual(320);
        if (locale === "zh-TW") {
          const text = await main.innerText();
          // No English sentence left in the Chinese page (scope codes and the reference code are not sentences).
          expect(text, screen.path).not.toMatch(/[A-Za-z]{3,} [A-Za-z]{3,}/);
          // The informal 你 of the scope descriptions and the signed-out pages, never mixed with 您 on one screen.
          expect(text, screen.path).not.toContain("您");
        }
      }
    } finally {
      await context.close();
    }
  });
}

/**
 * A wait's number and its unit as English writes them ("20 seconds"), or the number and the first character of
 * its unit as Chinese does ("10 分" of "10 分鐘後"): a Chinese line may break between any two Han characters,
 * inside a word too ("60 分" / "鐘後再試", as "忙" / "碌中" elsewhere), but never between a number and its unit.
 */
const NUMBER_AND_UNIT = /\d+\s(?:seconds?|minutes?|hours?|秒|分|小)/;

test("a wait never breaks between its number and its unit, from 320 to 420 px, in either language", async ({ browser }) => {
  for (const locale of ["en", "zh-TW"] as const) {
    const context = await browser.newContext({ locale, viewport: { width: 320, height: 800 } });
    const page = await context.newPage();
    try {
      for (const screen of SCREENS) {
        const wait = NUMBER_AND_UNIT.exec(locale === "en" ? screen.en : screen.zh)?.[0];
        if (!wait) continue;
        await page.goto(screen.path);
        const sentence = page.getByRole("main").getByText(wait);
        for (let width = 320; width <= 420; width += 2) {
          await page.setViewportSize({ width, height: 800 });
          const lines = await lineTexts(sentence);
          expect(
            lines.some((line) => line.replace(/\s/g, " ").includes(wait)),
            `${screen.path} at ${width} px: ${lines.join(" | ")}`,
          ).toBe(true);
        }
      }
    } finally {
      await context.close();
    }
  }
});

const OWN_VARIANTS: { name: string; knobs: KnobsPatch; pushed: boolean }[] = [
  { name: "PAR required", knobs: { par: "required" }, pushed: true },
  { name: "DPoP required with a changing nonce", knobs: { dpop: "required", dpopNonce: true }, pushed: false },
  { name: "PAR and DPoP required", knobs: { par: "required", dpop: "required", dpopNonce: true, dpopRevocation: true }, pushed: true },
  { name: "OpenID-only discovery", knobs: { openIdDiscoveryOnly: true }, pushed: false },
];

/**
 * A sandbox with `knobs` and a dashboard process of its own for the tests of the enclosing describe
 * (discovery is cached for ten minutes: a knob that changes it needs a fresh process).
 */
function withOwnDashboard(name: string, knobs: KnobsPatch): { sandbox: () => RunningSandbox; dashboard: () => DashboardInstance } {
  let sandbox: RunningSandbox | undefined;
  let dashboard: DashboardInstance | undefined;
  test.beforeAll(async () => {
    test.setTimeout(600_000);
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    sandbox = await startSandbox({ port: 0, dashboardRedirectUris: [`${appUrl}/api/auth/callback`], knobs });
    dashboard = await startDashboardInstance(
      name,
      {
        SITE_URL: sandbox.url,
        APP_URL: appUrl,
        OAUTH_CLIENT_ID: SEEDED_DASHBOARD_CLIENT.clientId,
        OAUTH_CLIENT_SECRET: SEEDED_DASHBOARD_CLIENT.clientSecret,
        SESSION_SECRET: randomBytes(32).toString("base64url"),
        EMBED_ORIGINS: sandbox.url,
      },
      300_000,
      port,
    );
  });
  test.afterAll(async () => {
    await dashboard?.stop();
    await sandbox?.close();
  });
  return { sandbox: () => sandbox!, dashboard: () => dashboard! };
}

for (const variant of OWN_VARIANTS) {
  test.describe(`with a dashboard of its own: ${variant.name}`, () => {
    const own = withOwnDashboard(variant.name, variant.knobs);

    test("signs in, reads every page, revokes", async ({ page }) => {
      test.setTimeout(120_000);
      const [sandbox, dashboard] = [own.sandbox(), own.dashboard()];
      const seen: string[] = [];
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame()) seen.push(frame.url());
      });
      await page.goto(`${dashboard.url}/`);
      await page.getByRole("link", { name: "Sign in" }).click();
      await page.getByLabel("Email").fill("maya@example.com");
      await page.getByLabel("Password").fill("demo");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("button", { name: "Allow" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toContainText(/Hello/);
      const atSite = seen.filter((url) => url.startsWith(`${sandbox.url}/oauth/authorize?`));
      expect(atSite.length).toBeGreaterThan(0);
      for (const url of atSite) {
        const keys = [...new URL(url).searchParams.keys()].sort();
        if (variant.pushed) expect(keys, url).toEqual(["client_id", "request_uri"]);
        else expect(keys, url).toContain("code_challenge");
      }
      await expectEveryPage(page, dashboard.url);
      await page.goto(`${dashboard.url}/settings`);
      await page.getByRole("button", { name: "Revoke access" }).click();
      await page.getByRole("button", { name: "Yes, revoke" }).click();
      await expect(page).toHaveURL(/\/signed-out\?reason=revoked/);
      const grants = [...sandbox.state.store.grants.values()];
      expect(grants.length).toBeGreaterThan(0);
      expect(grants.every((grant) => grant.revokedAt !== undefined)).toBe(true);
      if (variant.knobs.dpop) expect(grants.every((grant) => typeof grant.dpopJkt === "string")).toBe(true);
    });
  });
}

test.describe("with a dashboard of its own: a site whose sign-in pages speak the member's language", () => {
  const own = withOwnDashboard("localized sign-in", { localizedSignIn: true, par: "required" });
  test.use({ locale: "zh-TW", viewport: { width: 320, height: 640 } });

  test("a student whose browser asks for 繁體中文 signs in on the site's pages in 繁體中文, even through PAR", async ({ page }) => {
    test.setTimeout(120_000);
    const [sandbox, dashboard] = [own.sandbox(), own.dashboard()];
    await page.goto(`${dashboard.url}/`);
    await page.getByRole("link", { name: "登入", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "登入 Demo Academy" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-TW");
    // Pushed (RFC 9126): the language went with the rest, not in the address bar.
    expect([...new URL(page.url()).searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    await page.getByLabel("電子郵件").fill("maya@example.com");
    await page.getByLabel("密碼").fill("demo");
    await page.getByRole("button", { name: "登入" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "要允許 Member companion dashboard 存取你的帳號嗎？" })).toBeVisible();
    await expect(page.getByText("查看你報名的課程、訂單和活動報名")).toBeVisible();
    await page.getByRole("button", { name: "允許" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-TW");
    expect(sandbox.state.store.grants.size).toBeGreaterThan(0);
  });
});

/** On the site's sign-in page (a page or the panel's popup): signs in as `email`, unticks `permission` on the consent page, allows. */
async function allowWithout(page: Page, email: string, permission: RegExp): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("checkbox", { name: permission }).uncheck();
  await page.getByRole("button", { name: "Allow" }).click();
}

/** Opening `path` after the member withdrew the app's access lands on the signed-out page, which says so and keeps the way back. */
async function expectSignedOutAsWithdrawn(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(`/signed-out\\?reason=access_withdrawn&returnTo=${encodeURIComponent(path)}$`));
  await expect(page.getByRole("status")).toContainText("it was withdrawn at the site, or it expired");
}

async function expectEveryPage(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/courses`);
  await expect(page.getByRole("link", { name: /^Resume/ }).first()).toBeVisible();
  await page.goto(`${base}/orders`);
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveCount(0);
  await page.goto(`${base}/events`);
  await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveCount(0);
  await page.goto(`${base}/settings`);
  await expect(page.getByRole("button", { name: "Revoke access" })).toBeVisible();
}
