import { expect, type Locator, type Page } from "@playwright/test";

import { hydrated } from "./support";

/** The header's right end: a navigation named Account holding the account menu (its button named with the member's name). */
export function accountNavigation(page: Page): Locator {
  return page.getByRole("navigation", { name: /^(Account|帳號)$/ });
}

/** Opens the account menu and follows its Settings link (in either language). */
export async function openSettingsFromMenu(page: Page): Promise<void> {
  const account = accountNavigation(page);
  const menu = account.getByRole("button").first();
  // The header arrives in the server's HTML: a press before hydration opens nothing (a CI run lost one).
  await hydrated(menu);
  await menu.click();
  await account.getByRole("link", { name: /^(Settings|設定)$/ }).click();
  await expect(page).toHaveURL(/\/settings$/);
}
