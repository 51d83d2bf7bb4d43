import { expect, test, type Locator, type Page } from "./test";

import { statesNotDrawnApart } from "../journeys/drawn-apart";
import { DASHBOARD_FRAME_TITLE, expectSignedInFrame, signInThroughPopup } from "../journeys/embedded";

import { playwrightDriver } from "./playwright-driver";
import { HOST_PAGE, postSandboxControl, resetSandbox, signIn } from "./support";

/**
 * Forced colours (Windows' contrast themes): the browser keeps the page's text, borders and outlines, in the
 * reader's system colours, and drops every background tint (app/globals.css). What a tint alone showed must
 * still show. Each check compares what the browser paints, the same element in two states (a screenshot of
 * each, the same size): were the state drawn by a tint alone, the two would be the same, pixel for pixel.
 */
// Chromium's emulated contrast theme follows the colour scheme; the figures below were read in the light one.
test.use({ colorScheme: "light" });

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
  await page.emulateMedia({ forcedColors: "active" });
});

/** How many colours a screenshot holds, decoded by the browser in a blank page of its own (no CSP there). */
async function coloursIn(page: Page, png: Buffer): Promise<number> {
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(
      async (bytes) => {
        const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: "image/png" }));
        const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext("2d")!;
        context.drawImage(bitmap, 0, 0);
        // One 32-bit number per pixel (red, green, blue and alpha; a screenshot is opaque).
        return new Set(new Uint32Array(context.getImageData(0, 0, bitmap.width, bitmap.height).data.buffer)).size;
      },
      [...png],
    );
  } finally {
    await blank.close();
  }
}

/** The screenshot of `link` while its page is shown, then after `other` was followed to `otherHeading`. */
async function currentThenNot(page: Page, link: Locator, other: Locator, otherHeading: Locator): Promise<[Buffer, Buffer]> {
  await expect(link).toHaveAttribute("aria-current", "page");
  const current = await link.screenshot();
  await other.click();
  await expect(otherHeading).toBeVisible();
  await expect(link).not.toHaveAttribute("aria-current");
  // The pointer stays where it tapped; a hover must not be what tells the two apart.
  await page.mouse.move(0, 0);
  return [current, await link.screenshot()];
}

for (const width of [390, 1280] as const) {
  test(`at ${width} px, the tab of the page shown is drawn as the current one`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 });
    await signIn(page, "maya@example.com", { from: "/courses" });
    await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
    const tabs = page.getByRole("navigation", { name: "Main", exact: true });
    const [current, notCurrent] = await currentThenNot(
      page,
      tabs.getByRole("link", { name: "Courses" }),
      tabs.getByRole("link", { name: "Orders" }),
      page.getByRole("heading", { level: 1, name: "Orders" }),
    );
    expect(statesNotDrawnApart(current, notCurrent, "the Courses tab, current and not")).toEqual([]);
    // Its name stays readable on the highlight. Drawn on it, the glyphs' smoothed edges blend the two colours
    // (here 130 to 153 colours in the name's box); on the Canvas plate the browser puts behind text in forced
    // colours, HighlightText is the plate's own colour, and the name's box holds a handful (3 to 5).
    await tabs.getByRole("link", { name: "Courses" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
    const name = tabs.getByRole("link", { name: "Courses" }).getByText("Courses", { exact: true });
    expect(await coloursIn(page, await name.screenshot()), "colours in the current tab's name").toBeGreaterThan(20);
  });
}

test("a progress bar shows how far it is filled, and a primary button its edge", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "maya@example.com", { from: "/courses" });
  const bars = page.getByRole("progressbar");
  await expect(bars.first()).toBeVisible();
  // Two of maya's courses, two-digit values, so their bars are equally wide beside "…% complete".
  const at38 = bars.and(page.locator('[aria-valuenow="38"]'));
  const at64 = bars.and(page.locator('[aria-valuenow="64"]'));
  expect(statesNotDrawnApart(await at38.screenshot(), await at64.screenshot(), "the bars at 38 % and 64 %")).toEqual([]);

  // Forced colours paint any border in a system colour; a primary button has none otherwise.
  const resume = page.getByRole("link", { name: /^Resume at 12:34/ });
  const edge = await resume.evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.borderTopStyle, width: style.borderTopWidth };
  });
  expect(edge.style).toBe("solid");
  expect(edge.width).not.toBe("0px");
});

test("a page on its way shows its skeleton's blocks, not a blank", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  // The site answers late, so the tab's page is on its way long enough for a screenshot.
  await postSandboxControl(page, "/__sandbox/knobs", { latencyMs: 5_000 });
  await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Courses" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Loading Courses…" })).toBeAttached();
  // The blocks are hidden from assistive technology (the status above speaks for them): found by their place.
  // The first, where Courses' filters will be, is clear of the phone's tab bar.
  const block = page.locator('[aria-busy="true"] > [aria-hidden="true"] > *').first();
  // Drawn by its tint alone, the block is the page's Canvas and nothing else: one colour.
  expect(await coloursIn(page, await block.screenshot({ animations: "disabled" })), "colours in a block").toBeGreaterThan(1);
});

test("at 1280 px, the chosen pill of Show is drawn as chosen", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "maya@example.com", { from: "/courses" });
  const show = page.getByRole("group", { name: "Show" });
  // The radio covers its pill, so its screenshot is the pill's.
  const all = show.getByRole("radio", { name: /^All/ });
  await expect(all).toBeChecked();
  const chosen = await all.screenshot();
  await show.getByRole("radio", { name: /^In progress/ }).click();
  await expect(all).not.toBeChecked();
  await page.mouse.move(0, 0);
  expect(statesNotDrawnApart(chosen, await all.screenshot(), "the pill All, chosen and not")).toEqual([]);
});

test("in the site's panel, the section shown is drawn as the current one", async ({ page }) => {
  await page.goto(HOST_PAGE);
  const frame = page.frameLocator(`iframe[title="${DASHBOARD_FRAME_TITLE}"]`);
  const panel = playwrightDriver(page, frame);
  await signInThroughPopup(panel, "maya@example.com");
  await expectSignedInFrame(panel, "Maya");
  const sections = frame.getByRole("navigation", { name: "Main", exact: true });
  const [current, notCurrent] = await currentThenNot(
    page,
    sections.getByRole("link", { name: "Learning", exact: true }),
    sections.getByRole("link", { name: "Orders & events", exact: true }),
    frame.getByRole("heading", { level: 1, name: "Orders" }),
  );
  expect(statesNotDrawnApart(current, notCurrent, "the section Learning, current and not")).toEqual([]);
});
