import { expect, test, type Locator, type Page } from "@playwright/test";

import { signIn } from "./support";

/**
 * The items of the long lists are drawn only once they come near the viewport (content-visibility: auto,
 * components/ui/laid-out-near-view.ts), so that a page's first layout covers its first screen: issue 26.
 */

/** Each item's top (px from the top of the page) and whether the browser has drawn its contents. */
function itemStates(items: Locator): Promise<{ top: number; drawn: boolean }[]> {
  return items.evaluateAll((elements) =>
    elements.map((element) => ({
      top: element.getBoundingClientRect().top + window.scrollY,
      drawn: element.checkVisibility({ contentVisibilityAuto: true }),
    })),
  );
}

async function expectDrawnOnlyNearTheViewport(page: Page, items: Locator): Promise<void> {
  const viewportHeight = page.viewportSize()!.height;
  await expect(items.first()).toBeVisible();
  const states = await itemStates(items);
  // Chromium draws ahead what lies within one and a half screens of the viewport; past that, nothing.
  const far = states.filter((state) => state.top > 2.5 * viewportHeight);
  expect(far.length, "items far enough below the first screen for the check to mean something").toBeGreaterThan(0);
  expect(far.map((state) => state.drawn)).toEqual(far.map(() => false));
  const onFirstScreen = states.filter((state) => state.top < viewportHeight);
  expect(onFirstScreen.map((state) => state.drawn)).toEqual(onFirstScreen.map(() => true));
  const last = items.last();
  await last.scrollIntoViewIfNeeded();
  // Drawn from the next frame on.
  await expect.poll(async () => (await itemStates(items)).at(-1)!.drawn).toBe(true);
  await expect(last.getByRole("heading").first()).toBeVisible();
}

test.describe("long lists", () => {
  test("on a phone, course rows below the first screens are laid out only when they come near it", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, "kai@example.com");
    await page.goto("/courses");
    await expectDrawnOnlyNearTheViewport(page, page.getByRole("main").getByRole("article"));
  });

  test("on a short screen, orders and event registrations below it are laid out only when they come near it", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 420 });
    await signIn(page, "maya@example.com");
    for (const path of ["/orders", "/events"]) {
      await page.goto(path);
      await expectDrawnOnlyNearTheViewport(page, page.getByRole("main").getByRole("article"));
    }
  });
});
