import { expect, test, type Locator, type Page } from "./test";

import { accountNavigation } from "./account-menu";
import { APP_URL, gotoWithScriptsHeld, hydrated, isHydrated, resetSandbox, setTextSize, signIn } from "./support";

/** The header's account menu button and the two entries of its panel. */
function menu(page: Page): { button: Locator; settings: Locator; signOut: Locator } {
  const account = accountNavigation(page);
  return {
    button: account.getByRole("button", { name: "Maya Chen" }),
    settings: account.getByRole("link", { name: "Settings" }),
    signOut: account.getByRole("button", { name: "Sign out", exact: true }),
  };
}

/**
 * Whether Chromium tells assistive technology the menu's button is expanded. The button has no aria-expanded
 * of its own (it would be wrong before hydration): the browser derives it from the popover it opens.
 */
async function expandedForAssistiveTechnology(page: Page): Promise<boolean | undefined> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send("DOM.getDocument", { depth: 0 })) as { root: { nodeId: number } };
    const { nodes } = await cdp.send("Accessibility.queryAXTree", { nodeId: root.nodeId, accessibleName: "Maya Chen", role: "button" });
    expect(nodes).toHaveLength(1);
    const expanded = nodes[0]?.properties?.find((property) => property.name === "expanded");
    return expanded?.value.value as boolean | undefined;
  } finally {
    await cdp.detach();
  }
}

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
});

test("a tap on the account menu before the page is interactive opens it, and it still works once React has hydrated", async ({ page }) => {
  // A slow phone: the page's scripts (not its stylesheet) arrive only once the student has tapped.
  const releaseScripts = await gotoWithScriptsHeld(page, "/courses");
  const { button, settings } = menu(page);
  await button.click();
  expect(await isHydrated(button), "the tap came before hydration").toBe(false);
  await expect(settings).toBeVisible();
  await expect.poll(() => expandedForAssistiveTechnology(page)).toBe(true);

  releaseScripts();
  await hydrated(button);
  await expect(settings).toBeVisible();
  await settings.click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
  await expect(settings).toBeHidden();
});

/** What a press before hydration shows until the page acts on it (components/ui/press-before-hydration.tsx). */
function earlyPressNotice(page: Page, text: string): Locator {
  return page.getByRole("status").filter({ hasText: text });
}

test("Sign out pressed before the page is interactive says so at once, and signs out once the scripts have run", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const releaseScripts = await gotoWithScriptsHeld(page, "/courses");
  const { button, signOut } = menu(page);
  await button.click();
  await signOut.click();
  expect(await isHydrated(signOut), "the press came before hydration").toBe(false);
  const notice = earlyPressNotice(page, "Signing out as soon as the page has loaded…");
  await expect(notice).toBeInViewport({ ratio: 1 });
  // On a phone, above the tab bar, which it must not cover.
  const tabBar = (await page.getByRole("navigation", { name: "Main" }).boundingBox())!;
  const noticeBox = (await notice.boundingBox())!;
  expect(noticeBox.y + noticeBox.height).toBeLessThanOrEqual(tabBar.y);
  expect((await page.request.get(`${APP_URL}/api/session`)).status(), "nothing sent yet").toBe(200);

  releaseScripts();
  await expect(page).toHaveURL(/\/signed-out/);
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  expect((await page.request.get(`${APP_URL}/api/session`)).status()).toBe(401);
});

test("an early Sign out that fails gives way to the failure; pressed once interactive, only the button says Signing out", async ({
  page,
}) => {
  // The dashboard cannot be reached when the press is acted on.
  await page.route("**/api/auth/logout", (route) => route.abort("internetdisconnected"));
  const releaseScripts = await gotoWithScriptsHeld(page, "/courses");
  const { button, signOut } = menu(page);
  await button.click();
  await signOut.click();
  const notice = earlyPressNotice(page, "Signing out as soon as the page has loaded…");
  await expect(notice).toBeVisible();
  releaseScripts();
  await expect(
    page.getByRole("alert").filter({ hasText: "You could not be signed out. The dashboard could not be reached." }),
  ).toBeVisible();
  await expect(notice).toBeHidden();

  // Interactive now: the press goes out at once, the button itself shows it, and no notice opens.
  let releaseLogout = () => {};
  const logoutHeld = new Promise<void>((resolve) => (releaseLogout = resolve));
  await page.unroute("**/api/auth/logout");
  await page.route("**/api/auth/logout", async (route) => {
    await logoutHeld;
    await route.continue();
  });
  await signOut.click();
  await expect(accountNavigation(page).getByRole("button", { name: "Signing out…" })).toBeVisible();
  await expect(notice).toBeHidden();
  releaseLogout();
  await expect(page).toHaveURL(/\/signed-out/);
});

test("the account menu: Escape and a click elsewhere close it, focus returns to its button, Tab past its last entry closes it", async ({
  page,
}) => {
  const { button, settings, signOut } = menu(page);
  await hydrated(button);

  await button.click();
  await expect(settings).toBeVisible();
  await expect.poll(() => expandedForAssistiveTechnology(page)).toBe(true);
  await page.keyboard.press("Escape");
  await expect(settings).toBeHidden();
  await expect.poll(() => expandedForAssistiveTechnology(page)).toBe(false);
  await expect(button).toBeFocused();

  await button.click();
  await page.getByRole("heading", { level: 1 }).click();
  await expect(settings).toBeHidden();

  // Keyboard: into the panel, along it (it stays open), then on past its last entry (it closes).
  await button.focus();
  await page.keyboard.press("Enter");
  await expect(settings).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(settings).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(signOut).toBeFocused();
  await expect(settings).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(settings).toBeHidden();
  await expect(button).not.toBeFocused();
});

for (const width of [320, 1280]) {
  test(`at ${width} px the account menu opens just below its button, its right edge on the button's, inside the screen`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 740 });
    const { button, signOut } = menu(page);
    await hydrated(button);
    await button.click();
    const panel = accountNavigation(page).locator("[popover='auto']");
    await expect(panel).toBeVisible();
    const buttonBox = (await button.boundingBox())!;
    const panelBox = (await panel.boundingBox())!;
    expect(Math.abs(panelBox.x + panelBox.width - (buttonBox.x + buttonBox.width))).toBeLessThanOrEqual(1);
    expect(panelBox.y).toBeGreaterThanOrEqual(buttonBox.y + buttonBox.height);
    expect(panelBox.y).toBeLessThanOrEqual(buttonBox.y + buttonBox.height + 8);
    expect(panelBox.x).toBeGreaterThanOrEqual(0);
    await expect(signOut).toBeInViewport({ ratio: 1 });
  });
}

// A student who reads with larger text (a browser's font size setting, as Firefox for Android and Samsung
// Internet scale text alone; setTextSize): at 150 % and 200 % on a 320 px phone, the header keeps to the
// screen, the name giving way.
for (const scale of [150, 200]) {
  test(`with text at ${scale} % on a 320 px phone, the account menu keeps to the screen and still opens its entries`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 740 });
    const { button, settings } = menu(page);
    await hydrated(button);
    await setTextSize(page, scale);
    await expect(button).toBeInViewport({ ratio: 1 });
    const header = await page
      .getByRole("banner")
      .evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }));
    expect(header.scrollWidth).toBeLessThanOrEqual(header.clientWidth);
    await button.click();
    await expect(settings).toBeInViewport({ ratio: 1 });
  });
}
