import { expect, type FrameLocator, type Locator, type Page } from "@playwright/test";

import type { JourneyDriver, PopupDriver, Target } from "../journeys/driver";

type Scope = Page | FrameLocator | Locator;

/** The shared journeys' driver (tests/journeys) on a Playwright page, or on a frame of it. */
export function playwrightDriver(page: Page, scope: Page | FrameLocator = page): JourneyDriver {
  const find = (target: Target): Locator => locate(scope, target);
  return {
    async waitForUrl(pattern) {
      if (scope !== page) throw new Error("A frame's URL is checked through its page.");
      await expect(page).toHaveURL(pattern);
    },
    click: (target) => find(target).first().click(),
    fill: (target, value) => find(target).first().fill(value),
    expectVisible: (target) => expect(find(target).first()).toBeVisible(),
    expectNone: (target) => expect(find(target)).toHaveCount(0),
    isVisible: (target) => find(target).first().isVisible(),
    count: (target) => find(target).count(),
    attribute: async (target, name) => {
      await expect(find(target).first()).toBeVisible();
      return find(target).first().getAttribute(name);
    },
    text: async (target) => {
      await expect(find(target).first()).toBeVisible();
      return ((await find(target).first().textContent()) ?? "").replace(/\s+/g, " ").trim();
    },
    async clickOpeningPopup(target) {
      // Only the page's script opens the popup: before hydration a press opens something else (the panel's
      // Sign in: a new tab) or nothing.
      await hydrated(find(target).first());
      const opened = page.waitForEvent("popup");
      await find(target).first().click();
      return popupDriver(await opened);
    },
  };
}

/**
 * Waits until React has hydrated `element` (its props are on it): a press before that is lost, as a
 * student's early tap on a slow phone is, and one press is then one request.
 */
export async function hydrated(element: Locator): Promise<void> {
  await expect.poll(() => isHydrated(element)).toBe(true);
}

/** Whether React has hydrated `element` yet (its props are on it). */
export function isHydrated(element: Locator): Promise<boolean> {
  return element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactProps")));
}

function popupDriver(popup: Page): PopupDriver {
  const closed = popup.isClosed() ? Promise.resolve() : popup.waitForEvent("close").then(() => undefined);
  return { ...playwrightDriver(popup), closed: () => closed };
}

function locate(scope: Scope, target: Target): Locator {
  if ("label" in target) return scope.getByLabel(target.label, { exact: true });
  if ("text" in target) return scope.getByText(target.text);
  const within = target.within ? locate(scope, target.within).first() : scope;
  const byRole = within.getByRole(
    target.role,
    target.name === undefined ? {} : { name: target.name, exact: typeof target.name === "string" },
  );
  return target.hasText === undefined ? byRole : byRole.filter({ hasText: target.hasText });
}
