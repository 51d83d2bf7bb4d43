import axe from "axe-core";

import { expect, test, type Locator, type Page } from "./test";

import { statesNotDrawnApart } from "../journeys/drawn-apart";
import { DASHBOARD_FRAME_TITLE } from "../journeys/embedded";

import { completeSiteSignIn, expectNoSeriousAxeViolations, HOST_PAGE, hydrated, resetSandbox, signIn } from "./support";

const PATHS = ["/", "/courses", "/orders", "/events", "/settings"] as const;
const WIDTHS = [320, 1280] as const;

const LANGUAGES = [
  { locale: "en", acceptLanguage: "en", signIn: "Sign in" },
  { locale: "zh-TW", acceptLanguage: "zh-TW,zh;q=0.9", signIn: "登入" },
] as const;

async function setWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: width < 640 ? 740 : 900 });
}

for (const language of LANGUAGES) {
  test.describe(`axe, in ${language.locale}`, () => {
    test.use({ locale: language.locale, extraHTTPHeaders: { "accept-language": language.acceptLanguage } });
    // Ten pages and four panel states, each checked by axe: more than the default minute on a busy machine.
    test.setTimeout(180_000);

    test.beforeEach(async ({ page }) => {
      await resetSandbox(page);
    });

    test("no violation on any page at 320 and 1280 px", async ({ page }) => {
      await page.goto("/");
      await expectNoSeriousAxeViolations(page);
      await page.getByRole("link", { name: language.signIn }).click();
      await completeSiteSignIn(page, "maya@example.com");
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
      for (const width of WIDTHS) {
        await setWidth(page, width);
        for (const path of PATHS) {
          await page.goto(path);
          await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
          await expect(
            page
              .getByRole("main")
              .getByRole("status")
              .filter({ hasText: /Loading|載入/ }),
          ).toHaveCount(0);
          await expectNoSeriousAxeViolations(page);
        }
      }
    });

    test("no violation in the panel, signed out and signed in, at 320 and 1280 px", async ({ page }) => {
      await page.goto(HOST_PAGE);
      const frame = page.frameLocator(`iframe[title="${DASHBOARD_FRAME_TITLE}"]`);
      const signIn = frame.getByRole("link", { name: language.signIn, exact: true });
      await expect(signIn).toBeVisible();
      for (const width of WIDTHS) {
        await setWidth(page, width);
        await expectNoSeriousAxeViolations(page);
      }
      await hydrated(signIn);
      const popup = page.waitForEvent("popup");
      await signIn.click();
      const window = await popup;
      await completeSiteSignIn(window, "maya@example.com");
      await expect(frame.getByRole("heading", { level: 1 })).toContainText("Maya");
      for (const width of WIDTHS) {
        await setWidth(page, width);
        await expectNoSeriousAxeViolations(page);
      }
    });
  });
}

/** What axe-core's `commons.color` offers (its typings leave it out). */
interface AxeColours {
  Color: new () => AxeColour;
  getContrast: (background: AxeColour, foreground: AxeColour) => number;
}
interface AxeColour {
  alpha: number;
  parseString(value: string): AxeColour;
}

/**
 * The contrast of a form field's edge with its own fill and with what is behind it (the nearest ancestor with
 * a background), by axe-core's own colour arithmetic (`axe.commons.color`), which its text-contrast rule uses.
 */
function edgeContrasts(field: Locator): Promise<{ withFill: number; withPage: number }> {
  return field.evaluate((element) => {
    const { Color, getContrast } = (window as unknown as { axe: { commons: { color: AxeColours } } }).axe.commons.color;
    const colour = (value: string) => new Color().parseString(value);
    const style = getComputedStyle(element);
    let behind = element.parentElement;
    while (behind && colour(getComputedStyle(behind).backgroundColor).alpha === 0) behind = behind.parentElement;
    const edge = colour(style.borderTopColor);
    return {
      withFill: getContrast(colour(style.backgroundColor), edge),
      withPage: getContrast(colour(getComputedStyle(behind ?? document.documentElement).backgroundColor), edge),
    };
  });
}

// WCAG 2.2 1.4.11: an empty "Find a course" is found by its edge alone, so that edge needs 3:1 against the
// field's fill and the page around it; Show and Sort by have the same edge. axe checks text, not edges.
for (const colorScheme of ["light", "dark"] as const) {
  test(`in the ${colorScheme} scheme, Find a course, Show and Sort by have an edge of 3:1 or more`, async ({ page }) => {
    await resetSandbox(page);
    await page.emulateMedia({ colorScheme });
    await setWidth(page, 390);
    await signIn(page, "maya@example.com", { from: "/courses" });
    await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
    await page.evaluate(axe.source);
    const main = page.getByRole("main");
    for (const field of [main.getByRole("searchbox", { name: "Find a course" }), main.getByLabel("Show"), main.getByLabel("Sort by")]) {
      const contrasts = await edgeContrasts(field);
      expect(contrasts.withFill, String(field)).toBeGreaterThanOrEqual(3);
      expect(contrasts.withPage, String(field)).toBeGreaterThanOrEqual(3);
    }
  });
}

// WCAG 2.2 1.4.1: from 640 px the current tab is told by more than its tint: it is underlined. The underline
// is drawn, not clipped by the name's box (which cuts a name too long for its tab on a phone).
for (const width of [700, 1280] as const) {
  test(`at ${width} px, the current tab is underlined`, async ({ page }) => {
    await resetSandbox(page);
    await setWidth(page, width);
    await signIn(page, "maya@example.com", { from: "/courses" });
    const tab = page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Courses" });
    await expect(tab).toHaveAttribute("aria-current", "page");
    const underlined = await tab.screenshot();
    await tab.evaluate((link) => link.style.setProperty("text-decoration-line", "none"));
    expect(statesNotDrawnApart(underlined, await tab.screenshot(), "the current tab, with its underline and without")).toEqual([]);
  });
}
