import { expect, test, type Browser, type BrowserContext, type FrameLocator, type Locator, type Page } from "./test";

import { DASHBOARD_FRAME_TITLE, expectSignedInFrame, signInThroughPopup } from "../journeys/embedded";
import { outsideCardsContent } from "../journeys/layout-checks";

import { playwrightDriver } from "./playwright-driver";
import { choicesCutOff, chooseLanguage, cutOffIn, HOST_PAGE, resetSandbox, setTextSize, signIn } from "./support";

// A student who reads with larger text: a browser's font size setting (Firefox for Android and Samsung
// Internet scale text alone, and so does Chrome's on a desktop; setTextSize), at 150 % and at 200 %, WCAG
// 1.4.4's bound, on a 320 px phone, and at 200 % on a 280 px one. Nothing may pass the screen's edge or be
// cut (WCAG 1.4.10): no tab name ending in an ellipsis, no order number or email address running off its
// card, no access state clipped by its row, no course name cut, no progress bar of no width,
// no sliver of the member's name, no choice of Courses' Show or Sort by cut off in its select, no amount
// broken inside its number. The site's panel is checked from 125 % to 200 %. A student who reads with wider
// text spacing (WCAG 1.4.12, TEXT_SPACING below) gets the same checks, on a 320 px phone and in the panel.

const LOCALES = {
  en: {
    language: "English",
    main: "Main",
    account: "Account",
    settings: "Settings",
    learning: "Learning",
    courses: "Courses",
    ordersAndEvents: "Orders & events",
    events: "Events",
    show: "Show",
    sortBy: "Sort by",
  },
  "zh-TW": {
    language: "繁體中文",
    main: "主選單",
    account: "帳號",
    settings: "設定",
    learning: "學習",
    courses: "課程",
    ordersAndEvents: "訂單與活動",
    events: "活動",
    show: "顯示",
    sortBy: "排序方式",
  },
} as const;
const LOCALE_NAMES = Object.keys(LOCALES) as (keyof typeof LOCALES)[];
/** Each phone's width, and the text sizes checked on it: 280 px is the narrowest phone in use (a folded Galaxy Z Fold's outer screen). */
const PHONES = [
  { width: 320, scales: [150, 200] },
  { width: 280, scales: [200] },
] as const;
/**
 * The site's 256 px panel on a 320 px phone, up to 200 %: there the site's page grows too and the frame is
 * 190 px, a card's text has less than 5rem, and a word wider than that ("Registered", "Learning", an amount)
 * breaks rather than pass the edge (app/globals.css, below 12rem).
 */
const PANEL_SCALES = [125, 150, 175, 200] as const;

/** Each page, and what shows that its content (the site's data) is on it. */
const PAGES: { path: string; loaded: (page: Page) => Locator }[] = [
  { path: "/", loaded: (page) => page.getByRole("link", { name: /^(Resume at|從) 12:34/ }).first() },
  { path: "/courses", loaded: (page) => page.getByRole("heading", { name: "Product Photography at Home" }) },
  { path: "/orders", loaded: (page) => page.getByRole("main").getByRole("article").first() },
  { path: "/events", loaded: (page) => page.getByRole("heading", { name: "Live Q&A: Watercolor skies" }).first() },
  // The other sign-in's row in "Signed in", with when it was last active.
  { path: "/settings", loaded: (page) => page.getByText(/^(Last active|最近使用：)/).first() },
];

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

/** What runs into a card's padding or past it inside `root` (layout-checks' outsideCardsContent). */
function outsideCardsIn(root: Locator): Promise<string[]> {
  return root.evaluate(outsideCardsContent);
}

/** Progress bars narrower than 3 rem (their value in words left them no width). */
function barsWithoutWidth(root: Locator): Promise<string[]> {
  return root.evaluate((container) => {
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
    return [...container.querySelectorAll('[role="progressbar"]')]
      .filter((bar) => bar.getBoundingClientRect().width < 3 * rem - 0.5)
      .map((bar) => `${bar.getAttribute("aria-label")}: ${Math.round(bar.getBoundingClientRect().width)} px`);
  });
}

/** Amounts on the Orders page that do not end at their row's right edge (a wrapped amount stays at the right). */
function amountsOffTheRight(root: Locator): Promise<string[]> {
  return root.evaluate((container) =>
    [...container.querySelectorAll("article li > span:last-child, article dd")]
      .filter((amount) => Math.abs(amount.getBoundingClientRect().right - amount.parentElement!.getBoundingClientRect().right) > 1)
      .map((amount) => amount.textContent ?? ""),
  );
}

/**
 * On a phone `width` px wide, in `locale`, with the reader's setting applied once signed in: every page keeps
 * to the screen and shows all it says.
 */
async function checkPhonePages(
  { page, context, browser }: { page: Page; context: BrowserContext; browser: Browser },
  width: number,
  locale: keyof typeof LOCALES,
  applyReading: (page: Page) => Promise<void>,
): Promise<void> {
  const words = LOCALES[locale];
  // Maya signed in elsewhere too, so Settings lists a sign-in with the time it was last active.
  const elsewhere = await browser.newContext();
  await signIn(await elsewhere.newPage(), "maya@example.com");
  await elsewhere.close();
  await page.setViewportSize({ width, height: 720 });
  await signIn(page, "maya@example.com");
  await chooseLanguage(context, locale);
  await applyReading(page);
  for (const { path, loaded } of PAGES) {
    await page.goto(path);
    await expect(loaded(page)).toBeVisible();
    const main = page.getByRole("main");
    expect(await cutOffIn(main), path).toEqual([]);
    expect(await outsideCardsIn(main), path).toEqual([]);
    expect(await barsWithoutWidth(main), path).toEqual([]);
    if (path === "/orders") {
      expect(await amountsOffTheRight(main)).toEqual([]);
      expect(await amountsBrokenInsideAPiece(main)).toEqual([]);
    }
    // Courses' Show and Sort by: each choice whole, on two lines if it needs them ("Access ends soonest").
    if (path === "/courses") {
      for (const label of [words.show, words.sortBy])
        expect(await choicesCutOff(main.getByLabel(label, { exact: true })), label).toEqual([]);
    }
    // The tab bar: four names whole under their icons.
    const tabs = page.getByRole("navigation", { name: words.main });
    await expect(tabs.getByRole("link")).toHaveCount(4);
    expect(await cutOffIn(tabs), path).toEqual([]);
    // The header keeps to the screen; the account menu shows the name's first letters or only its
    // initial, never a sliver of a letter, and is still named by it.
    const banner = page.getByRole("banner");
    expect(await banner.evaluate((element) => element.scrollWidth <= element.clientWidth), path).toBe(true);
    const button = page.getByRole("navigation", { name: words.account }).getByRole("button", { name: "Maya Chen" });
    await expect(button).toBeInViewport({ ratio: 1 });
    const shownName = await button.getByText("Maya Chen", { exact: true }).evaluate((name) => {
      const width = name.getBoundingClientRect().width;
      return width <= 1 ? "hidden" : width >= 3 * parseFloat(getComputedStyle(name).fontSize) ? "readable" : `${width} px`;
    });
    expect(["hidden", "readable"], `${path}: the name shows ${shownName}`).toContain(shownName);
  }
}

for (const locale of LOCALE_NAMES) {
  for (const { width, scale } of PHONES.flatMap((phone) => phone.scales.map((size) => ({ width: phone.width, scale: size })))) {
    test(`with text at ${scale} % on a ${width} px phone, in ${locale}, every page keeps to the screen and shows all it says`, async ({
      page,
      context,
      browser,
    }) => {
      await checkPhonePages({ page, context, browser }, width, locale, () => setTextSize(page, scale));
    });
  }
}

/**
 * Amounts broken inside their sign or their number ("US$129.0" | "0"): an amount wider than its line breaks
 * only between the two (formatCurrencyPieces), each a text node of its own.
 */
function amountsBrokenInsideAPiece(root: Locator): Promise<string[]> {
  return root.evaluate((container) =>
    [...container.querySelectorAll("article li > span:last-child, article dd")].flatMap((amount) =>
      [...amount.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .filter((text) => {
          const range = document.createRange();
          range.selectNodeContents(text);
          return new Set([...range.getClientRects()].map((line) => Math.round(line.top))).size > 1;
        })
        .map((text) => `${text.textContent ?? ""} in ${amount.textContent ?? ""}`),
    ),
  );
}

/** Order items whose amount is not on the line their name starts on. */
function amountsUnderTheirItem(root: Locator): Promise<string[]> {
  return root.evaluate((container) =>
    [...container.querySelectorAll("article li")]
      .filter((item) => item.lastElementChild!.getBoundingClientRect().top > item.firstElementChild!.getBoundingClientRect().top + 4)
      .map((item) => item.textContent ?? ""),
  );
}

/** The site's page on a 320 px phone, Maya signed in in its panel: the panel's frame. */
async function signedInPanelOnAPhone(page: Page): Promise<FrameLocator> {
  await page.setViewportSize({ width: 320, height: 720 });
  await page.goto(HOST_PAGE);
  const frame = page.frameLocator(`iframe[title="${DASHBOARD_FRAME_TITLE}"]`);
  const driver = playwrightDriver(page, frame);
  await signInThroughPopup(driver, "maya@example.com");
  await expectSignedInFrame(driver, "Maya");
  return frame;
}

/** Links whose name runs out of their own box (a section's name wider than its tab), though nothing clips it. */
function linksOverflowing(root: Locator): Promise<string[]> {
  return root.evaluate((container) =>
    [...container.querySelectorAll("a")]
      .filter((link) => link.scrollWidth > link.clientWidth)
      .map((link) => `${link.textContent ?? ""}: ${link.scrollWidth} > ${link.clientWidth}`),
  );
}

/**
 * In the site's panel on a 320 px phone, in `locale`, with the reader's setting applied once the panel is in
 * that language: its sections and pages keep to the frame.
 */
async function checkPanelPages(page: Page, locale: keyof typeof LOCALES, applyReading: (page: Page) => Promise<void>): Promise<void> {
  const words = LOCALES[locale];
  const frame = await signedInPanelOnAPhone(page);
  // The panel's language is chosen in its Settings (its cookie lives in the site's partition).
  const account = frame.getByRole("navigation", { name: "Account" });
  await account.getByRole("button", { name: "Maya Chen" }).click();
  await account.getByRole("link", { name: "Settings", exact: true }).click();
  await frame.getByText(words.language, { exact: true }).click();
  await expect(frame.getByRole("heading", { level: 1, name: words.settings })).toBeVisible();
  await expect(frame.getByText("maya@example.com").first()).toBeVisible();
  await applyReading(page);
  const body = frame.locator("body");
  expect(await cutOffIn(body), words.settings).toEqual([]);
  expect(await outsideCardsIn(body), words.settings).toEqual([]);
  const navigation = frame.getByRole("navigation", { name: words.main });
  expect(await linksOverflowing(navigation), words.settings).toEqual([]);
  // The account menu keeps to the frame: its initial and chevron, still named by the member.
  await expect(frame.getByRole("navigation", { name: words.account }).getByRole("button", { name: "Maya Chen" })).toBeInViewport({
    ratio: 1,
  });
  // Each section opens on its first page (Continue, Orders), then its second.
  for (const [section, opened, sectionPage, loaded] of [
    [
      words.learning,
      frame.getByRole("link", { name: /^(Resume at|從) 12:34/ }).first(),
      words.courses,
      frame.getByRole("heading", { name: "Product Photography at Home" }),
    ],
    [
      words.ordersAndEvents,
      frame.getByRole("main").getByRole("article").first(),
      words.events,
      frame.getByRole("heading", { name: "Live Q&A: Watercolor skies" }).first(),
    ],
  ] as const) {
    await navigation.getByRole("link", { name: section, exact: true }).click();
    await expect(navigation.getByRole("link", { name: section, exact: true })).toHaveAttribute("aria-current", /^(page|true)$/);
    await expect(opened).toBeVisible();
    expect(await cutOffIn(body), section).toEqual([]);
    expect(await outsideCardsIn(body), section).toEqual([]);
    expect(await barsWithoutWidth(body), section).toEqual([]);
    expect(await amountsBrokenInsideAPiece(body), section).toEqual([]);
    expect(await linksOverflowing(navigation), section).toEqual([]);
    await navigation.getByRole("link", { name: sectionPage, exact: true }).click();
    await expect(loaded).toBeVisible();
    expect(await cutOffIn(body), sectionPage).toEqual([]);
    expect(await outsideCardsIn(body), sectionPage).toEqual([]);
    expect(await barsWithoutWidth(body), sectionPage).toEqual([]);
  }
}

for (const locale of LOCALE_NAMES) {
  for (const scale of PANEL_SCALES) {
    test(`with text at ${scale} % in the panel on a 320 px phone, in ${locale}, its sections and pages keep to the frame`, async ({
      page,
    }) => {
      await checkPanelPages(page, locale, () => setTextSize(page, scale));
    });
  }
}

/**
 * WCAG 2.2 1.4.12's text spacing, as a reader's extension or user stylesheet sets it: line height 1.5 times
 * the font size, paragraphs 2 times apart, letters 0.12 and words 0.16 times the font size apart. It must
 * cost no content: a course name cut at two lines lost its last word ("Product Photography at").
 */
const TEXT_SPACING =
  "* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important }" +
  " p { margin-bottom: 2em !important }";

/** Applies TEXT_SPACING to the documents the page shows, and to every one it loads from now on. */
async function applyTextSpacing(page: Page): Promise<void> {
  await page.addInitScript((css) => {
    document.addEventListener("DOMContentLoaded", () => {
      const style = document.createElement("style");
      style.textContent = css;
      document.head.append(style);
    });
  }, TEXT_SPACING);
  for (const frame of page.frames()) await frame.addStyleTag({ content: TEXT_SPACING });
}

test.describe("with WCAG 1.4.12's text spacing", () => {
  // The reader's stylesheet is theirs, not the page's: its Content Security Policy does not govern it.
  test.use({ bypassCSP: true });

  for (const locale of LOCALE_NAMES) {
    test(`on a 320 px phone, in ${locale}, every page keeps to the screen and shows all it says`, async ({ page, context, browser }) => {
      await checkPhonePages({ page, context, browser }, 320, locale, applyTextSpacing);
    });

    test(`in the panel on a 320 px phone, in ${locale}, its sections and pages keep to the frame`, async ({ page }) => {
      await checkPanelPages(page, locale, applyTextSpacing);
    });
  }
});

test("in the panel at the default text size, an order's amounts stay beside their items; only larger text puts them under", async ({
  page,
}) => {
  const frame = await signedInPanelOnAPhone(page);
  await frame.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Orders & events", exact: true }).click();
  const main = frame.getByRole("main");
  await expect(main.getByRole("article").first()).toBeVisible();
  expect(await amountsUnderTheirItem(main)).toEqual([]);
  await setTextSize(page, 150);
  expect(await amountsUnderTheirItem(main)).not.toEqual([]);
  expect(await amountsOffTheRight(main)).toEqual([]);
});
