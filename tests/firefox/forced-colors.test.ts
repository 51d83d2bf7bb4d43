import type { ElementHandle, Page } from "puppeteer-core";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";

import { statesNotDrawnApart } from "../journeys/drawn-apart";
import { signInFromLanding } from "../journeys/member-journey";
import { APP_URL } from "../journeys/urls";

import { COOKIES, freshPage, launchFirefox, resetSandbox, type Firefox } from "./firefox";
import { puppeteerDriver } from "./puppeteer-driver";

/*
 * Forced colours in Firefox: its contrast setting (Settings, Colors, "Override the colors specified by the
 * page": Always; with the accessibility theme, as Windows' contrast themes set it) matches `forced-colors:
 * active`, drops every background tint and puts a plate behind text. What app/globals.css draws in system
 * colours must show there as in Chromium (tests/e2e/forced-colors.spec.ts): an element in two states is
 * painted differently.
 */

const CONTRAST_THEME = { "ui.useAccessibilityTheme": 1, "browser.display.document_color_use": 2 };

let firefox: Firefox | undefined;

beforeAll(async () => {
  firefox = await launchFirefox(COOKIES.totalCookieProtection, CONTRAST_THEME);
});

afterAll(async () => {
  await firefox?.close();
});

beforeEach(resetSandbox);

/** The one visible element `selector` finds (puppeteer's ARIA query or CSS). */
async function only(page: Page, selector: string): Promise<ElementHandle> {
  const handle = await page.waitForSelector(selector, { visible: true });
  if (!handle) throw new Error(`Nothing visible matches ${selector}`);
  return handle;
}

async function screenshotOf(page: Page, selector: string): Promise<Uint8Array> {
  return (await only(page, selector)).screenshot();
}

test("the current tab, a progress bar's fill and the chosen pill of Show still show", async () => {
  if (!firefox) throw new Error("Firefox is not running.");
  const { page } = await freshPage(firefox);
  await page.setViewport({ width: 390, height: 844 });
  const driver = puppeteerDriver(page);
  await page.goto(APP_URL);
  await signInFromLanding(driver, "maya@example.com");
  await driver.expectVisible({ role: "heading", name: /Maya/ });
  // Firefox's setting reaches the page.
  expect(await page.evaluate(() => matchMedia("(forced-colors: active)").matches)).toBe(true);

  await page.goto(`${APP_URL}/courses`);
  const coursesTab = '::-p-aria([name="Courses"][role="link"])';
  const tabWhenCurrent = await screenshotOf(page, coursesTab);
  // Two two-digit values, so the bars are equally wide beside "…% complete".
  const at38 = await screenshotOf(page, '[role="progressbar"][aria-valuenow="38"]');
  const at64 = await screenshotOf(page, '[role="progressbar"][aria-valuenow="64"]');
  expect(statesNotDrawnApart(at38, at64, "the bars at 38 % and 64 %")).toEqual([]);

  await driver.click({ role: "link", name: "Orders" });
  await driver.expectVisible({ role: "heading", name: "Orders" });
  await page.mouse.move(0, 0);
  expect(statesNotDrawnApart(tabWhenCurrent, await screenshotOf(page, coursesTab), "the Courses tab, current and not")).toEqual([]);

  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(`${APP_URL}/courses`);
  const pillAll = '::-p-aria([name="All 8"][role="radio"])';
  const chosen = await screenshotOf(page, pillAll);
  await driver.click({ role: "radio", name: "In progress 6" });
  await page.waitForFunction((radio) => !(radio as HTMLInputElement).checked, {}, await only(page, pillAll));
  await page.mouse.move(0, 0);
  expect(statesNotDrawnApart(chosen, await screenshotOf(page, pillAll), "the pill All, chosen and not")).toEqual([]);
  await page.browserContext().close();
});
