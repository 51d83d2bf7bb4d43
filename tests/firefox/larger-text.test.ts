import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";

import { cutOff, outsideCardsContent } from "../journeys/layout-checks";
import { signInFromLanding, type PageName } from "../journeys/member-journey";
import type { Target } from "../journeys/driver";
import { APP_URL } from "../journeys/urls";

import { COOKIES, freshPage, launchFirefox, resetSandbox, type Firefox } from "./firefox";
import { puppeteerDriver } from "./puppeteer-driver";

/*
 * A student who reads Firefox at 200 % text: Firefox for Android scales text alone, as its default font size
 * does on a desktop (`font.size.variable.*`, 32 px for Latin and Traditional Chinese pages), so the
 * dashboard's rem media queries see it as they do on a phone. On a 320 px and a 280 px phone, in both
 * languages, nothing on a page passes the screen's edge, is clipped, or runs into its card's padding:
 * Chromium's tests/e2e/larger-text.spec.ts checks the same in Chromium, with the same checks.
 *
 * Not checked here: Courses' Show and Sort by at 200 % still cut a long choice ("Access ends soo"), since
 * Firefox has no customizable select and a native one shows one line (README, "Narrow screens").
 */

const TEXT_AT_200_PERCENT = { "font.size.variable.x-western": 32, "font.size.variable.zh-TW": 32 };

/** Each page, and what shows that its data has come, in either language. */
const PAGES: { name: PageName; path: string; loaded: Target }[] = [
  { name: "Overview", path: "/", loaded: { role: "link", name: /^(Resume at|從) 12:34/ } },
  { name: "Courses", path: "/courses", loaded: { role: "heading", name: "Product Photography at Home" } },
  { name: "Orders", path: "/orders", loaded: { role: "article", name: /DA2026/ } },
  { name: "Events", path: "/events", loaded: { role: "heading", name: "Live Q&A: Watercolor skies" } },
  { name: "Settings", path: "/settings", loaded: { text: "maya@example.com" } },
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
