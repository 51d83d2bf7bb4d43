import { expect, test, type Page } from "./test";

import { DASHBOARD_FRAME_TITLE } from "../journeys/embedded";

import { completeSiteSignIn, expectNoSeriousAxeViolations, HOST_PAGE, hydrated, resetSandbox } from "./support";

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
