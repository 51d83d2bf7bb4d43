import { expect, test } from "./test";

import { openSettingsFromMenu } from "./account-menu";
import { expectNoSeriousAxeViolations, gotoWithScriptsHeld, resetSandbox, signIn } from "./support";

const PAGES = [
  ["/", "Overview"],
  ["/courses", "Courses"],
  ["/orders", "Orders"],
  ["/events", "Events"],
  ["/settings", "Settings"],
] as const;

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

test("fits a 360 px phone without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, "maya@example.com");
  for (const [path] of PAGES) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

test("works with the keyboard alone, with a visible focus", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  const coursesLink = page.getByRole("navigation").getByRole("link", { name: "Courses", exact: true });
  for (let presses = 0; presses < 10 && !(await coursesLink.evaluate((element) => element === document.activeElement)); presses += 1) {
    await page.keyboard.press("Tab");
  }
  await expect(coursesLink).toBeFocused();
  const outline = await coursesLink.evaluate((element) => {
    const style = getComputedStyle(element);
    return { outline: style.outlineStyle, width: parseFloat(style.outlineWidth), shadow: style.boxShadow };
  });
  expect((outline.outline !== "none" && outline.width > 0) || outline.shadow !== "none").toBe(true);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/courses$/);
});

test("follows the system's dark mode and stays accessible", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page, "maya@example.com");
  for (const [path] of PAGES) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  }
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
  expect(r + g + b).toBeLessThan(200);
});

test("a language tapped before Settings is interactive (a slow phone) is applied once it is", async ({ page, context }) => {
  await signIn(page, "maya@example.com", { from: "/settings" });
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();

  // Settings again, its JavaScript held back until the language is tapped: the server's HTML alone.
  const releaseScripts = await gotoWithScriptsHeld(page, "/settings");
  const language = page.getByRole("group", { name: "Language" });
  await language.getByRole("radio", { name: "繁體中文" }).check();
  // Nothing ran yet: the page is still in English and no cookie was written.
  await expect(page.getByRole("navigation").getByRole("link", { name: "Courses", exact: true })).toBeVisible();
  expect((await context.cookies()).some(({ name }) => name === "locale")).toBe(false);

  releaseScripts();
  await expect(page.getByRole("navigation").getByRole("link", { name: "課程" })).toBeVisible();
  await expect(page.getByRole("group", { name: "語言" }).getByRole("radio", { name: "繁體中文" })).toBeChecked();
  await page.unrouteAll();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "設定" })).toBeVisible();
});

test.describe("in Traditional Chinese", () => {
  test.use({ locale: "zh-TW", extraHTTPHeaders: { "accept-language": "zh-TW,zh;q=0.9" } });

  test("speaks the browser's language, and the switch in Settings changes it", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "登入" }).click();
    await page.getByLabel("Email").fill("maya@example.com");
    await page.getByLabel("Password").fill("demo");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page.getByRole("navigation").getByRole("link", { name: "課程" })).toBeVisible();
    await page.getByRole("navigation").getByRole("link", { name: "訂單" }).click();
    await expect(page.getByText(/NT\$|\$/).first()).toBeVisible();
    await expectNoSeriousAxeViolations(page);
    await openSettingsFromMenu(page);
    // The switch applies after the server renders again in the new language, so a plain click, then the result.
    await page.getByLabel("English").click();
    await expect(page.getByRole("navigation").getByRole("link", { name: "Courses", exact: true })).toBeVisible();
  });
});

test("the language tapped stays checked while the app is rendered again in it", async ({ page }) => {
  await signIn(page, "maya@example.com", { from: "/settings" });
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  // The server takes its time with the refresh (an RSC request) that renders the app in the new language.
  let releaseRefresh = () => {};
  const refreshHeld = new Promise<void>((resolve) => (releaseRefresh = resolve));
  await page.route("**/settings*", async (route) => {
    if (route.request().headers()["rsc"]) await refreshHeld;
    await route.continue();
  });
  await page.getByRole("group", { name: "Language" }).getByText("繁體中文").click();
  // Still in English, and busy, but the choice shows: no jump back to English while it loads.
  await expect(page.getByRole("group", { name: "Language" })).toHaveAttribute("aria-busy", "true");
  await expect(page.getByRole("radio", { name: "繁體中文" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "English" })).not.toBeChecked();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  releaseRefresh();
  await expect(page.getByRole("heading", { level: 1, name: "設定" })).toBeVisible();
  await expect(page.getByRole("group", { name: "語言" }).getByRole("radio", { name: "繁體中文" })).toBeChecked();
  await page.unrouteAll();
});
