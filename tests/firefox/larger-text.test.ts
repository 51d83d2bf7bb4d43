import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";

import { cutOff, outsideCardsContent } from "../journeys/layout-checks";
import { signInFromLanding } from "../journeys/member-journey";
import type { Target } from "../journeys/driver";
import { APP_URL } from "../journeys/urls";

import { COOKIES, freshPage, launchFirefox, resetSandbox, type Firefox } from "./firefox";
import { puppeteerDriver } from "./puppeteer-driver";

/*
 * A student who reads with larger text, in Firefox: its default font size at 32 px (Settings, Fonts, Size;
 * `font.size.variable.*`, for Latin and Traditional Chinese pages) doubles the text and the rem the
 * dashboard's media queries count in, as a phone's larger text does. On a 320 px and a 280 px phone, in
 * both languages, nothing on a page passes the screen's edge, is clipped, or runs into its card's padding.
 * Chromium's tests/e2e/larger-text.spec.ts checks the same, with the same checks (tests/journeys/layout-checks.ts).
 *
 * Not checked here: Courses' Show and Sort by at 200 % still cut a long choice ("Access ends soo"), since
 * Firefox has no customizable select and a native one shows one line (the README says so).
 */

const TEXT_AT_200_PERCENT = { "font.size.variable.x-western": 32, "font.size.variable.zh-TW": 32 };

/** Each page, and what shows that its data has come, in either language. */
const PAGES: { path: string; loaded: Target }[] = [
  { path: "/", loaded: { role: "link", name: /^(Resume at|從) 12:34/ } },
  { path: "/courses", loaded: { role: "heading", name: "Product Photography at Home" } },
  { path: "/orders", loaded: { role: "article" } },
  { path: "/events", loaded: { role: "heading", name: "Live Q&A: Watercolor skies" } },
  { path: "/settings", loaded: { text: "maya@example.com" } },
];

let firefox: Firefox | undefined;

beforeAll(async () => {
  firefox = await launchFirefox(COOKIES.totalCookieProtection, TEXT_AT_200_PERCENT);
});

afterAll(async () => {
  await firefox?.close();
});

beforeEach(resetSandbox);

/** Signs maya in on a phone `width` px wide, in English, then in `language` if another is named. */
async function signedInPhone(width: number, language?: string): Promise<Page> {
  if (!firefox) throw new Error("Firefox is not running.");
  const { page } = await freshPage(firefox);
  await page.setViewport({ width, height: 720 });
  const driver = puppeteerDriver(page);
  await page.goto(APP_URL);
  await signInFromLanding(driver, "maya@example.com");
  await driver.expectVisible({ role: "heading", name: /Maya/ });
  if (language) {
    await page.goto(`${APP_URL}/settings`);
    await driver.click({ role: "radio", name: language });
    await driver.expectVisible({ role: "heading", name: "設定" });
  }
  return page;
}

for (const [language, width] of [
  [undefined, 320],
  ["繁體中文", 320],
  [undefined, 280],
] as const) {
  test(`with text at 200 % on a ${width} px phone${language ? `, in ${language}` : ""}, every page keeps to the screen`, async () => {
    const page = await signedInPhone(width, language);
    const driver = puppeteerDriver(page);
    // Firefox's setting reaches the page: its text, and the rem its media queries count in, are twice the size.
    expect(await page.evaluate(() => [getComputedStyle(document.documentElement).fontSize, matchMedia("(width < 12rem)").matches])).toEqual(
      ["32px", true],
    );
    for (const { path, loaded } of PAGES) {
      await page.goto(`${APP_URL}${path}`);
      await driver.expectVisible(loaded);
      expect(await page.$eval("main", cutOff), path).toEqual([]);
      expect(await page.$eval("main", outsideCardsContent), path).toEqual([]);
    }
    await page.browserContext().close();
  });
}
