import {
  expect,
  request,
  test,
  type APIRequestContext,
  type Browser,
  type FrameLocator,
  type JSHandle,
  type Locator,
  type Page,
} from "./test";

import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../lib/contract/csrf";
import { authorizeWithoutBrowser } from "../../sandbox/testing";
import { DASHBOARD_FRAME_TITLE, expectSignedInFrame, signInThroughPopup } from "../journeys/embedded";
import { expectPageSecurityHeaders } from "../journeys/security";

import { playwrightDriver } from "./playwright-driver";
import { APP_URL, chooseLanguage, HOST_PAGE, lineTexts, markSiteRequests, resetSandbox, signIn, SITE_URL } from "./support";

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

const STATIC_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "strict-transport-security": "max-age=31536000; includeSubDomains",
};

test("finding 2 / checklist 67: a prefetch header switches nothing off, and the nonce never comes from the request", async ({ page }) => {
  await signIn(page, "maya@example.com");
  const attacker = "attacker-chosen-nonce";
  const response = await page.request.get("/settings", {
    headers: { "next-router-prefetch": "1", "content-security-policy": `script-src 'nonce-${attacker}'`, "x-nonce": attacker },
  });
  const headers = response.headers();
  const nonce = expectPageSecurityHeaders(headers, SITE_URL);
  expect(nonce).not.toBe(attacker);
  expect(headers).toMatchObject(STATIC_HEADERS);
  expect(await response.text()).not.toContain(attacker);
});

test("finding 2: static files carry nosniff, HSTS, Referrer-Policy and are never framed", async ({ request }) => {
  const html = await (await request.get("/")).text();
  const chunk = /\/_next\/static\/[^"']+\.js/.exec(html)?.[0];
  expect(chunk).toBeDefined();
  for (const path of ["/favicon.ico", "/icon.svg", "/manifest.webmanifest", chunk!]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expect(response.headers(), path).toMatchObject({ ...STATIC_HEADERS, "x-frame-options": "DENY" });
  }
});

// OWASP ASVS 5 V13.4.6: no answer names the framework behind it (Next.js's X-Powered-By is off in next.config.mjs).
test("no answer names the framework: no X-Powered-By on a page, a data route, a static file or a 404", async ({ request }) => {
  const html = await (await request.get("/signed-out")).text();
  const chunk = /\/_next\/static\/[^"']+\.js/.exec(html)?.[0];
  expect(chunk).toBeDefined();
  for (const path of ["/", "/signed-out", "/api/health", "/api/account/courses", chunk!, "/no-such-page"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.headers(), path).not.toHaveProperty("x-powered-by");
  }
});

test("finding 6: the image optimizer is not served", async ({ request }) => {
  const response = await request.get("/_next/image?url=%2Ficon.svg&w=64&q=75");
  expect(response.status()).not.toBe(200);
});

test("checklist 17: the callback answers with Referrer-Policy: no-referrer and no-store on the production server", async ({ request }) => {
  const response = await request.get("/api/auth/callback?code=abc&state=def", { maxRedirects: 0 });
  expect([302, 303, 307]).toContain(response.status());
  expect(response.headers()["referrer-policy"]).toBe("no-referrer");
  expect(response.headers()["cache-control"]).toBe("no-store");
});

test("checklist 64: transport spellings of a protected page show no member data without a session", async ({ page, request }) => {
  await signIn(page, "maya@example.com");
  const signedIn = await page.request.get("/settings");
  expect(await signedIn.text()).toContain("maya@example.com");
  for (const path of ["/settings", "/settings/", "/settings.rsc", "/settings?_rsc=1", "/%73ettings", "/settings/__PAGE__.segment.rsc"]) {
    const variants: Record<string, string>[] = [
      {},
      { rsc: "1" },
      { rsc: "1", "next-router-prefetch": "1", "next-router-segment-prefetch": "/_tree" },
    ];
    for (const headers of variants) {
      const response = await request.get(path, { headers, maxRedirects: 0 });
      expect(response.status(), `${path} ${JSON.stringify(headers)}`).toBeLessThan(500);
      expect(await response.text(), `${path} ${JSON.stringify(headers)}`).not.toContain("maya@example.com");
    }
  }
});

test("finding 8: the revoke confirmation cannot be double-clicked through from another window", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await page.goto("/settings/revoke");
  const confirm = page.getByRole("button", { name: "Yes, revoke" });
  // At once after the page appears, the button is inert; a moment later it works.
  await expect(confirm).toBeDisabled();
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(page).toHaveURL(/\/signed-out\?reason=revoked/);
});

test("Revoke access: focus on the question, a button that looks ready, an early press explained, Cancel returns focus", async ({
  page,
}) => {
  await signIn(page, "maya@example.com");
  await page.goto("/settings");
  const revoke = page.getByRole("main").getByRole("button", { name: "Revoke access" });
  await revoke.click();
  await expect(page).toHaveURL(/\/settings\/revoke$/);
  // Keyboard and screen-reader focus starts at the question, not on <body>.
  await expect(page.getByRole("heading", { level: 1, name: "Revoke this app's access?" })).toBeFocused();

  const confirm = page.getByRole("button", { name: "Yes, revoke" });
  // The window regains focus (as when another window raises it under the pointer): the button is inert
  // again for a moment, but it is not faded or disabled-looking meanwhile.
  const look = await confirm.evaluate(async (button: HTMLButtonElement) => {
    window.dispatchEvent(new Event("focus"));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return { ariaDisabled: button.getAttribute("aria-disabled"), disabled: button.disabled, opacity: getComputedStyle(button).opacity };
  });
  expect(look).toEqual({ ariaDisabled: "true", disabled: false, opacity: "1" });
  // A press in that moment revokes nothing and says why.
  await confirm.evaluate(() => window.dispatchEvent(new Event("focus")));
  await confirm.click({ force: true });
  await expect(
    page.getByRole("status").filter({ hasText: "That press came just as the page appeared, so nothing was revoked." }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/settings\/revoke$/);
  expect((await page.request.get("/api/session")).status()).toBe(200);

  // Cancel: back on Settings, focus is on the button that opened the confirmation.
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(revoke).toBeFocused();
});

const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const FIREFOX_ON_MACOS = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:133.0) Gecko/20100101 Firefox/133.0";

/**
 * Ends every other sign-in of the member this page is signed in as, as "Sign out everywhere else" does. The
 * dashboard keeps the member's list in its own shared state, which resetSandbox does not touch, and earlier
 * tests' sign-ins stay live in it: a test of the list starts from this, so it sees only the sign-ins it makes.
 */
async function endEveryOtherSignIn(page: Page) {
  const response = await page.request.post(`${APP_URL}/api/sessions/end`, {
    data: { others: true },
    headers: { origin: APP_URL, [CSRF_HEADER]: CSRF_HEADER_VALUE },
  });
  expect(response.status()).toBe(200);
}

/** Maya signed in here, then on another device (`userAgent`), and nowhere else; this page on Settings, with its list. */
async function signedInThereAndHere(browser: Browser, page: Page, userAgent: string) {
  await signIn(page, "maya@example.com");
  await endEveryOtherSignIn(page);
  const laptop = await browser.newContext({ userAgent });
  const other = await laptop.newPage();
  await signIn(other, "maya@example.com");
  await page.goto("/settings");
  const list = page.getByRole("region", { name: "Where you're signed in" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  return { laptop, other, list };
}

test("Where you're signed in: this device first; Sign out there ends the other session at once", async ({ browser, page }) => {
  const { laptop, other, list } = await signedInThereAndHere(browser, page, FIREFOX_ON_WINDOWS);
  await expect(list.getByRole("listitem").first().getByText("This device")).toBeVisible();
  await expect(list.getByRole("listitem").last().getByText("Firefox on Windows")).toBeVisible();
  // Only what the press asks of the site: a sign-in past the member's cap also revokes (her oldest one's grant).
  const siteRequestsSincePress = await markSiteRequests(page);
  await list.getByRole("button", { name: /^Sign out there: Firefox on Windows/ }).click();
  // Its row stays, the answer in place of the button, which took focus with it (not lost to <body>).
  const row = list.getByRole("listitem").filter({ hasText: "Firefox on Windows" });
  await expect(row.getByRole("status")).toHaveText("Signed out there.");
  await expect(row.getByRole("status")).toBeFocused();
  await expect(row.getByRole("button")).toHaveCount(0);
  expect((await other.request.get(`${APP_URL}/api/session`)).status()).toBe(401);
  // Its grant is revoked at the site: the refresh token and the access token.
  const revocations = (await siteRequestsSincePress()).filter((entry) => entry.endpoint === "revoke");
  expect(revocations.map((entry) => entry.status)).toEqual([200, 200]);
  await laptop.close();
});

test("Where you're signed in: Sign out there and Sign out everywhere else look ready, and an early press ends nothing and says so", async ({
  browser,
  page,
}) => {
  const { laptop, other, list } = await signedInThereAndHere(browser, page, FIREFOX_ON_MACOS);
  const there = list.getByRole("button", { name: /^Sign out there: Firefox on macOS/ });
  const everywhereElse = list.getByRole("button", { name: "Sign out everywhere else" });
  await expect(there).toBeVisible();

  // Settings regains focus (as when another window raises it under the pointer): both buttons are inert
  // for a moment (ASVS 5 V3.4.6), but neither is faded or disabled-looking meanwhile.
  const looks = await list.evaluate(async (region) => {
    window.dispatchEvent(new Event("focus"));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return [...region.querySelectorAll("button")].map((button) => ({
      name: button.textContent,
      ariaDisabled: button.getAttribute("aria-disabled"),
      disabled: button.disabled,
      opacity: getComputedStyle(button).opacity,
    }));
  });
  expect(looks).toEqual([
    { name: "Sign out there", ariaDisabled: "true", disabled: false, opacity: "1" },
    { name: "Sign out everywhere else", ariaDisabled: "true", disabled: false, opacity: "1" },
  ]);

  // A press in that moment (the second click of a staged double-click) ends nothing, not even once the
  // buttons are armed (it is not queued), and the status line says so.
  await there.evaluate((button: HTMLButtonElement) => {
    window.dispatchEvent(new Event("focus"));
    button.click();
  });
  const tooSoon = list.getByRole("status").filter({ hasText: "That press came just as this appeared, so nothing was signed out." });
  await expect(tooSoon).toBeVisible();
  await everywhereElse.evaluate((button: HTMLButtonElement) => {
    window.dispatchEvent(new Event("focus"));
    button.click();
  });
  await expect(tooSoon).toBeVisible();
  await expect(there).toBeEnabled();
  await page.waitForTimeout(300);
  await expect(list.getByText("Firefox on macOS")).toBeVisible();
  expect((await other.request.get(`${APP_URL}/api/session`)).status()).toBe(200);

  // A press once the list has been in view ends that sign-in.
  await there.click();
  await expect(list.getByRole("status").filter({ hasText: "Signed out there." })).toBeVisible();
  await expect(there).toHaveCount(0);
  expect((await other.request.get(`${APP_URL}/api/session`)).status()).toBe(401);
  await laptop.close();
});

/** Maya's other devices, one sign-in each: enough rows that, on a phone, the list's foot is out of view of its top. */
const OTHER_DEVICES = [
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0",
  "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
];

/** Maya signed in on a device with `userAgent` over HTTP, through the sandbox's real pages: that device's cookies. */
async function signedInElsewhere(userAgent: string): Promise<APIRequestContext> {
  const device = await request.newContext({ userAgent });
  const login = await device.get(`${APP_URL}/api/auth/login?returnTo=%2F`, { maxRedirects: 0 });
  expect(login.status()).toBe(303);
  const callback = await authorizeWithoutBrowser(login.headers().location!, { email: "maya@example.com" });
  expect((await device.get(callback.href, { maxRedirects: 0 })).status()).toBe(303);
  return device;
}

/** Maya signed in here and on each of OTHER_DEVICES, nowhere else; this page on Settings, with the first other sign-in's row. */
async function signedInOnManyDevices(page: Page) {
  await signIn(page, "maya@example.com");
  await endEveryOtherSignIn(page);
  const devices: APIRequestContext[] = [];
  for (const userAgent of OTHER_DEVICES) devices.push(await signedInElsewhere(userAgent));
  await page.goto("/settings");
  const list = page.getByRole("region", { name: "Where you're signed in" });
  const signOutThere = list.getByRole("button", { name: /^Sign out there: / });
  await expect(signOutThere).toHaveCount(OTHER_DEVICES.length);
  // Near the top: the row just under this device's.
  await expect(list.getByRole("listitem").first().getByText("This device")).toBeVisible();
  const row = list.getByRole("listitem").nth(1);
  const there = row.getByRole("button", { name: /^Sign out there: / });
  return { devices, list, there, row, everywhereElse: list.getByRole("button", { name: "Sign out everywhere else" }) };
}

/** `answer` sits just under `pressed`: the next thing below it, not beside another row. */
async function expectJustUnder(answer: Locator, pressed: Locator) {
  const [above, below] = [(await pressed.boundingBox())!, (await answer.boundingBox())!];
  expect(below.y).toBeGreaterThanOrEqual(above.y + above.height);
  expect(below.y - (above.y + above.height)).toBeLessThan(24);
}

/** What GET /api/session answers each device: 200 while it is signed in. */
async function stillSignedIn(devices: APIRequestContext[]): Promise<number[]> {
  return Promise.all(devices.map(async (device) => (await device.get(`${APP_URL}/api/session`)).status()));
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 320, height: 640 },
]) {
  test.describe(`Where you're signed in on a ${viewport.width} px phone`, () => {
    test.use({ viewport });

    test("Sign out there keeps its row, answered where its button was: the next row's button does not move under the finger", async ({
      page,
    }) => {
      const { devices, list, there, row } = await signedInOnManyDevices(page);
      await bringToMiddle(page, there);
      // That very button (two devices may have the same name), wherever it goes.
      const next = list
        .getByRole("listitem")
        .nth(2)
        .getByRole("button", { name: /^Sign out there: / });
      const nextButton = await next.elementHandle();
      const before = (await nextButton.boundingBox())!.y;
      const listedAgain = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/sessions");
      await expect(there).not.toHaveAttribute("aria-disabled");
      await tapArmed(there);
      await expect(row.getByRole("status")).toHaveText("Signed out there.");
      await expect(row.getByRole("status")).toBeFocused();
      // The list as the site has it now, without that sign-in: the row is still shown, ended.
      await listedAgain;
      await expect(list.getByRole("button", { name: /^Sign out there: / })).toHaveCount(OTHER_DEVICES.length - 1);
      await expect(row.getByRole("status")).toHaveText("Signed out there.");
      expect(Math.abs((await nextButton.boundingBox())!.y - before)).toBeLessThanOrEqual(1);
      await nextButton.dispose();
      expect((await stillSignedIn(devices)).filter((status) => status === 401)).toHaveLength(1);
      for (const device of devices) await device.dispose();
    });

    test("an early press is answered in view under what was pressed: a row near the top of a long list, Sign out everywhere else", async ({
      page,
    }) => {
      const { devices, list, there, row, everywhereElse } = await signedInOnManyDevices(page);
      await there.scrollIntoViewIfNeeded();
      // The list's foot is out of view: an answer there would go unseen.
      await expect(everywhereElse).not.toBeInViewport();
      // Settings regains focus (another window raised it under the finger) and the tap lands at once.
      await there.evaluate(() => window.dispatchEvent(new Event("focus")));
      await there.click({ force: true });
      const tooSoon = row.getByRole("status");
      await expect(tooSoon).toHaveText("That press came just as this appeared, so nothing was signed out. Press again if you meant it.");
      await expect(tooSoon).toBeInViewport();
      await expect(list.getByRole("status")).toHaveCount(1);
      await expectJustUnder(tooSoon, there);
      // Nothing ended.
      await expect(list.getByRole("button", { name: /^Sign out there: / })).toHaveCount(OTHER_DEVICES.length);
      expect(await stillSignedIn(devices)).toEqual(OTHER_DEVICES.map(() => 200));

      // An early Sign out everywhere else is answered under it, and the row's answer goes.
      await everywhereElse.scrollIntoViewIfNeeded();
      await everywhereElse.evaluate(() => window.dispatchEvent(new Event("focus")));
      await everywhereElse.click({ force: true });
      const tooSoonThere = list.getByRole("status");
      await expect(tooSoonThere).toHaveCount(1);
      await expect(tooSoonThere).toBeInViewport();
      await expectJustUnder(tooSoonThere, everywhereElse);
      await expect(row.getByRole("status")).toHaveCount(0);
      expect(await stillSignedIn(devices)).toEqual(OTHER_DEVICES.map(() => 200));
      for (const device of devices) await device.dispose();
    });

    test("an early Sign out there just above the tab bar is answered clear of the bar", async ({ page }) => {
      const { devices, list } = await signedInOnManyDevices(page);
      const tabBar = page.getByRole("navigation", { name: "Main" });
      const lower = list.getByRole("listitem").nth(3);
      const lowerThere = lower.getByRole("button", { name: /^Sign out there: / });
      await lowerThere.scrollIntoViewIfNeeded();
      const tabBarTop = (await tabBar.boundingBox())!.y;
      const before = (await lowerThere.boundingBox())!;
      await page.evaluate((by) => window.scrollBy(0, by), before.y + before.height - (tabBarTop - 4));
      const tapped = (await lowerThere.boundingBox())!;
      expect(tapped.y + tapped.height).toBeCloseTo(tabBarTop - 4, 0);
      // Tapped where it is, as Safari on iOS taps: the button does not take focus, so nothing scrolls it.
      await lowerThere.evaluate((button: HTMLButtonElement) => {
        window.dispatchEvent(new Event("focus"));
        button.click();
      });
      const tooSoon = lower.getByRole("status");
      await expect(tooSoon).toBeVisible();
      await expect(async () => {
        const answer = (await tooSoon.boundingBox())!;
        expect(answer.y + answer.height).toBeLessThanOrEqual((await tabBar.boundingBox())!.y);
      }).toPass();
      await expect(lowerThere).toBeInViewport();
      expect(await stillSignedIn(devices)).toEqual(OTHER_DEVICES.map(() => 200));
      for (const device of devices) await device.dispose();
    });

    test("when Sign out there fails, the alert is under that row, in view, and the row stays", async ({ page }) => {
      const { devices, list, there, row } = await signedInOnManyDevices(page);
      await page.route("**/api/sessions/end", (route) =>
        route.fulfill({ status: 503, json: { error: { code: "site_unavailable", message: "The site did not answer." } } }),
      );
      await expect(there).toBeEnabled();
      await there.click();
      const alert = row.getByRole("alert");
      await expect(alert).toHaveText("That could not be done. The site is not available right now. Please try again in a moment.");
      await expect(alert).toBeInViewport();
      await expectJustUnder(alert, there);
      await expect(list.getByRole("alert")).toHaveCount(1);
      await expect(list.getByRole("button", { name: /^Sign out there: / })).toHaveCount(OTHER_DEVICES.length);
      await expect(row.getByRole("button")).toBeVisible();
      expect(await stillSignedIn(devices)).toEqual(OTHER_DEVICES.map(() => 200));
      for (const device of devices) await device.dispose();
    });

    test("in Traditional Chinese the failure alert never leaves one character and its full stop alone on its last line", async ({
      page,
      context,
    }) => {
      const { devices } = await signedInOnManyDevices(page);
      await chooseLanguage(context, "zh-TW");
      await page.reload();
      const row = page.getByRole("region", { name: "你在哪裡登入" }).getByRole("listitem").nth(1);
      await page.route("**/api/sessions/end", (route) =>
        route.fulfill({ status: 503, json: { error: { code: "site_unavailable", message: "The site did not answer." } } }),
      );
      const there = row.getByRole("button", { name: /^在該處登出：/ });
      await expect(there).toBeEnabled();
      await there.click();
      const alert = row.getByRole("alert");
      await expect(alert).toHaveText("無法完成這項操作。網站目前無法使用，請稍後再試。");
      // Without `text-wrap: pretty` on zh-TW paragraphs (app/globals.css) it read "…請稍後再" / "試。" at 390 px.
      const lines = await lineTexts(alert);
      expect(lines.length, lines.join(" / ")).toBeGreaterThan(1);
      expect(lines.at(-1)!.replace(/[。，、：；！？）」]/g, "").length, lines.join(" / ")).toBeGreaterThan(1);
      for (const device of devices) await device.dispose();
    });
  });
}

const TOO_SOON = "That press came just as this appeared, so nothing was signed out. Press again if you meant it.";
const FAILED = "That could not be done. The site is not available right now. Please try again in a moment.";

/** A tap the moment Settings regains focus (another window raised it under the finger), where the button is: too soon. */
async function tapTooSoon(button: Locator) {
  await button.evaluate((element: HTMLButtonElement) => {
    window.dispatchEvent(new Event("focus"));
    element.click();
  });
}

/** A tap where the button is, once the buttons are armed. */
async function tapArmed(button: Locator) {
  await expect(button).toBeEnabled();
  await button.evaluate((element: HTMLButtonElement) => element.click());
}

/** Scrolls the site's or the dashboard's page so that `control` is mid-screen: clear of the phone's tab bar, with room under it. */
async function bringToMiddle(page: Page, control: Locator) {
  const box = (await control.boundingBox())!;
  await page.evaluate((by) => window.scrollBy(0, by), box.y + box.height / 2 - page.viewportSize()!.height / 2);
}

/** The live region just after `control`: where its answer is put. */
function liveRegionAfter(control: Locator): Promise<JSHandle<Element | undefined>> {
  return control.evaluateHandle((element) =>
    [...element.ownerDocument.querySelectorAll("[aria-live]")].find(
      (region) => element.compareDocumentPosition(region) & Node.DOCUMENT_POSITION_FOLLOWING,
    ),
  );
}

/**
 * Taps `pressed` (in `list`) as `tap` does and expects it not to move on screen while the answer moves to it: the
 * answer (`role`, `text`) is the list's only one, just under it, put into the live region that was already there
 * (so it is read, once), and no other place in the list still says anything.
 */
async function expectAnsweredWhereItStays(
  page: Page,
  list: Locator,
  pressed: Locator,
  tap: (button: Locator) => Promise<void>,
  role: "status" | "alert",
  text: string,
) {
  await bringToMiddle(page, pressed);
  const region = await liveRegionAfter(pressed);
  expect(await region.evaluate((element) => element?.textContent)).toBe("");
  const before = (await pressed.boundingBox())!.y;
  await tap(pressed);
  const answer = list.getByRole(role);
  await expect(answer).toHaveText(text);
  expect(Math.abs((await pressed.boundingBox())!.y - before)).toBeLessThanOrEqual(2);
  await expectJustUnder(answer, pressed);
  await expect(answer).toBeInViewport();
  expect(await answer.evaluate((element, live) => live?.contains(element) ?? false, region)).toBe(true);
  await expect(list.getByRole(role === "status" ? "alert" : "status")).toHaveCount(0);
  expect((await list.ariaSnapshot()).split(text.slice(0, 40))).toHaveLength(2);
  await region.dispose();
}

/**
 * One answer after another down and up the list, each under what was pressed, which stays under the finger:
 * too soon on the first other sign-in, then on the second, a failure on the third, too soon on Sign out
 * everywhere else, and back on the first.
 */
async function expectEachTapStaysUnderTheFinger(page: Page, list: Locator) {
  const there = (row: number) =>
    list
      .getByRole("listitem")
      .nth(row)
      .getByRole("button", { name: /^Sign out there: / });
  const everywhereElse = list.getByRole("button", { name: "Sign out everywhere else" });
  await bringToMiddle(page, there(1));
  await tapTooSoon(there(1));
  await expect(list.getByRole("listitem").nth(1).getByRole("status")).toHaveText(TOO_SOON);

  await expectAnsweredWhereItStays(page, list, there(2), tapTooSoon, "status", TOO_SOON);
  await expect(list.getByRole("listitem").nth(2).getByRole("status")).toHaveText(TOO_SOON);

  await page.route("**/api/sessions/end", (route) =>
    route.fulfill({ status: 503, json: { error: { code: "site_unavailable", message: "The site did not answer." } } }),
  );
  await expectAnsweredWhereItStays(page, list, there(3), tapArmed, "alert", FAILED);
  await expect(list.getByRole("listitem").nth(3).getByRole("alert")).toHaveText(FAILED);
  await page.unroute("**/api/sessions/end");

  await expectAnsweredWhereItStays(page, list, everywhereElse, tapTooSoon, "status", TOO_SOON);
  await expectAnsweredWhereItStays(page, list, there(1), tapTooSoon, "status", TOO_SOON);
  await expect(list.getByRole("listitem").nth(1).getByRole("status")).toHaveText(TOO_SOON);
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 320, height: 640 },
  { width: 1280, height: 900 },
]) {
  test(`Where you're signed in at ${viewport.width} px: a tap further down the list after an answer stays under the finger`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const { devices, list } = await signedInOnManyDevices(page);
    await expectEachTapStaysUnderTheFinger(page, list);
    expect(await stillSignedIn(devices)).toEqual(OTHER_DEVICES.map(() => 200));
    for (const device of devices) await device.dispose();
  });
}

test("Where you're signed in, in the site's 256 px panel: a tap further down the list after an answer stays under the finger", async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(HOST_PAGE);
  const panel: FrameLocator = page.frameLocator(`iframe[title="${DASHBOARD_FRAME_TITLE}"]`);
  await signInThroughPopup(playwrightDriver(page, panel), "maya@example.com");
  await expectSignedInFrame(playwrightDriver(page, panel), "Maya");
  // The panel's own sign-in, its cookie replayed as the frame sends it: every other sign-in of Maya's ends.
  const embedded = (await context.cookies(APP_URL)).find((cookie) => cookie.name === "__Host-dash_embedded");
  const ended = await page.request.post(`${APP_URL}/api/sessions/end`, {
    data: { others: true },
    headers: { cookie: `__Host-dash_embedded=${embedded!.value}`, origin: APP_URL, [CSRF_HEADER]: CSRF_HEADER_VALUE },
  });
  expect(ended.status()).toBe(200);
  const devices: APIRequestContext[] = [];
  for (const userAgent of OTHER_DEVICES.slice(0, 3)) devices.push(await signedInElsewhere(userAgent));
  await panel.getByRole("navigation", { name: "Account" }).getByRole("button", { name: "Maya Chen" }).click();
  await panel.getByRole("link", { name: "Settings" }).click();
  const list = panel.getByRole("region", { name: "Where you're signed in" });
  await expect(list.getByRole("button", { name: /^Sign out there: / })).toHaveCount(3);
  await expect(list.getByRole("listitem").first().getByText("This device")).toBeVisible();
  expect(await page.locator(`iframe[title="${DASHBOARD_FRAME_TITLE}"]`).evaluate((frame) => frame.getBoundingClientRect().width)).toBe(256);
  await expectEachTapStaysUnderTheFinger(page, list);
  expect(await stillSignedIn(devices)).toEqual([200, 200, 200]);
  for (const device of devices) await device.dispose();
});
