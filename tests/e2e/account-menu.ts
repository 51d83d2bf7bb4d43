import { expect, type Locator, type Page } from "@playwright/test";

/** The header's right end: a navigation named Account holding the account menu (its button named with the member's name). */
export function accountNavigation(page: Page): Locator {
  return page.getByRole("navigation", { name: /^(Account|帳號)$/ });
}

/** Opens the account menu and follows its Settings link (in either language). */
export async function openSettingsFromMenu(page: Page): Promise<void> {
  const account = accountNavigation(page);
  // The menu is the browser's popover: it opens before React has hydrated the page, too.
  await account.getByRole("button").first().click();
  await account.getByRole("link", { name: /^(Settings|設定)$/ }).click();
  await expect(page).toHaveURL(/\/settings$/);
}
