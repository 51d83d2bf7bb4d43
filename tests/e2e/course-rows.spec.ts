import { expect, test, type Page } from "./test";

import { chooseLanguage, lineTexts, resetSandbox, screenshotPage, signIn } from "./support";

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

/** The courses' boxes, in order. */
async function courseBoxes(page: Page) {
  const articles = page.getByRole("main").getByRole("article");
  await expect(articles.first()).toBeVisible();
  return articles.evaluateAll((elements) =>
    elements.map((element) => {
      const rect = element.getBoundingClientRect();
      return { top: rect.top, bottom: rect.bottom, left: rect.left, width: rect.width, height: rect.height };
    }),
  );
}

test("on a 390 × 844 phone, courses are compact rows: five fit on one screen, each with its one way forward", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "kai@example.com", { from: "/courses" });
  await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
  const first = page.getByRole("main").getByRole("article").first();
  await first.evaluate((element) => element.scrollIntoView({ block: "start" }));
  const header = (await page.getByRole("banner").boundingBox())!;
  const tabBar = (await page.getByRole("navigation", { name: "Main" }).boundingBox())!;
  const boxes = await courseBoxes(page);
  // Between the sticky header and the tab bar, at least five whole rows.
  const onScreen = boxes.filter((box) => box.top >= header.y + header.height - 1 && box.bottom <= tabBar.y + 1);
  expect(onScreen.length).toBeGreaterThanOrEqual(5);
  // Rows, one under the other, full width; no cover picture on a phone.
  expect(new Set(boxes.slice(0, 5).map((box) => Math.round(box.left))).size).toBe(1);
  await expect(first.locator("img")).toBeHidden();
  // Each row: title, access in words, progress, and one action (no second button).
  for (const row of await page
    .getByRole("main")
    .getByRole("article")
    .all()
    .then((rows) => rows.slice(0, 5))) {
    await expect(row.getByRole("heading")).toBeVisible();
    await expect(row.getByText(/access|Access/).first()).toBeVisible();
    const actions = row.locator("a:visible, button:visible");
    expect(await actions.count()).toBeLessThanOrEqual(1);
  }
  await screenshotPage(page, "courses-rows");
});

test("from 640 px courses stay a grid of cards with their cover", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "maya@example.com", { from: "/courses" });
  const boxes = await courseBoxes(page);
  expect(boxes.length).toBeGreaterThanOrEqual(3);
  // Three cards side by side on the first line.
  expect(Math.abs(boxes[0]!.top - boxes[1]!.top)).toBeLessThan(2);
  expect(Math.abs(boxes[1]!.top - boxes[2]!.top)).toBeLessThan(2);
  await expect(page.getByRole("main").getByRole("article").first().locator("img")).toBeVisible();
});

/** Each row's access state (its badge) and its way forward (its one visible link), as drawn, with the badge's lines. */
async function rowParts(page: Page) {
  return page
    .getByRole("main")
    .getByRole("article")
    .evaluateAll((rows) =>
      rows.map((row) => {
        const box = (element: Element) => element.getBoundingClientRect().toJSON() as DOMRect;
        const badge = row.querySelector("[data-tone]")!;
        const action = [...row.querySelectorAll("a")].find((link) => link.getClientRects().length > 0)!;
        const style = getComputedStyle(badge);
        const lines = Math.round(
          (badge.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) /
            parseFloat(style.lineHeight),
        );
        return { name: row.querySelector("h2, h3")!.textContent, row: box(row), badge: box(badge), action: box(action), lines };
      }),
    );
}

for (const locale of ["en", "zh-TW"] as const) {
  test(`a row's access state never runs under its button nor grows tall: stacked at 320 px, side by side at 390 px (${locale})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await signIn(page, "maya@example.com", { from: "/courses" });
    await chooseLanguage(page.context(), locale);
    await page.goto("/courses");
    const rows = await rowParts(page);
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const { name, row, badge, action, lines } of rows) {
      // At 320 px the state has the row's whole width, above the way forward.
      expect(badge.bottom, `${name}: the state is above the button`).toBeLessThanOrEqual(action.top);
      expect(badge.right, `${name}: the state stays inside its row`).toBeLessThanOrEqual(row.right);
      expect(lines, `${name}: the state takes at most two lines`).toBeLessThanOrEqual(2);
    }
    await page.screenshot({ path: `artifacts/screenshots/courses-rows-320-${locale}.png` });

    await page.setViewportSize({ width: 390, height: 844 });
    for (const { name, badge, action, lines } of await rowParts(page)) {
      // With room for both, they share a line, and the state ends before the button starts.
      expect(Math.abs(badge.top + badge.height / 2 - (action.top + action.height / 2)), `${name}: side by side`).toBeLessThan(2);
      expect(badge.right, `${name}: the state ends before the button`).toBeLessThanOrEqual(action.left);
      expect(lines, `${name}: the state takes at most three lines`).toBeLessThanOrEqual(3);
    }
  });
}

const FILTER_WORDS = {
  en: { title: "Courses", find: "Find a course", show: "Show", sort: "Sort by", endingSoon: /^Ending soon \(\d+\)$/ },
  "zh-TW": { title: "課程", find: "尋找課程", show: "顯示", sort: "排序方式", endingSoon: /^即將到期（\d+）$/ },
} as const;

for (const locale of ["en", "zh-TW"] as const) {
  test(`on a 390 × 844 phone, Find a course, Show and Sort take little room: the first course starts in the top half (${locale})`, async ({
    page,
  }) => {
    const t = FILTER_WORDS[locale];
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, "kai@example.com", { from: "/courses" });
    await chooseLanguage(page.context(), locale);
    await page.goto("/courses");
    await expect(page.getByRole("heading", { level: 1, name: t.title })).toBeVisible();

    // Every control is on the first screen, each with its label; Show is a select with the counts in its options.
    const search = page.getByRole("search").getByRole("searchbox", { name: t.find });
    const show = page.getByRole("combobox", { name: t.show, exact: true });
    const sort = page.getByRole("combobox", { name: t.sort, exact: true });
    for (const control of [search, show, sort]) await expect(control).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole("group", { name: t.show, exact: true })).toHaveCount(0);
    // The old layout (pills in three lines, labels above every control) started the first course at 569 px.
    const first = (await page.getByRole("main").getByRole("article").first().boundingBox())!;
    expect(first.y).toBeLessThanOrEqual(420);

    // The keyboard goes from the search to Show to Sort; a choice made in the select lands in the URL.
    await search.focus();
    await page.keyboard.press("Tab");
    await expect(show).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(sort).toBeFocused();
    await show.selectOption("ending-soon");
    await expect(page).toHaveURL(/\/courses\?show=ending-soon$/);
    await expect(show.getByRole("option", { selected: true })).toHaveText(t.endingSoon);
    await expect(show).toHaveValue("ending-soon");
  });
}

for (const locale of ["en", "zh-TW"] as const) {
  test(`from 640 px, Sort by starts where the Show pills start, and from 1024 px it ends their row (${locale})`, async ({ page }) => {
    const t = FILTER_WORDS[locale];
    await signIn(page, "maya@example.com", { from: "/courses" });
    await chooseLanguage(page.context(), locale);
    await page.goto("/courses");
    const pills = page.getByRole("group", { name: t.show, exact: true });
    const sort = page.getByRole("combobox", { name: t.sort, exact: true });
    for (const width of [640, 700, 768, 900, 1023, 1024, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(pills).toBeVisible();
      const [pillsBox, sortBox] = [(await pills.boundingBox())!, (await sort.boundingBox())!];
      if (width < 1024) {
        // Under the pills, at the start of the row: not floating in its middle.
        expect(sortBox.y, `${width} px`).toBeGreaterThanOrEqual(pillsBox.y + pillsBox.height);
        expect(Math.abs(sortBox.x - pillsBox.x), `${width} px`).toBeLessThanOrEqual(1);
      } else {
        // Beside the pills, their bottoms in line.
        expect(sortBox.x, `${width} px`).toBeGreaterThanOrEqual(pillsBox.x + pillsBox.width);
        expect(Math.abs(sortBox.y + sortBox.height - (pillsBox.y + pillsBox.height)), `${width} px`).toBeLessThanOrEqual(1);
      }
    }
  });
}

/** A badge's date and its time from now, as each language writes them in "Access until …" and "Access ended on …". */
const KEPT_TOGETHER = {
  en: [/[A-Z][a-z]{2} \d{1,2}, \d{4}|\d{1,2} [A-Z][a-z]{2} \d{4}/, /\(in [^)]+\)/],
  "zh-TW": [/\d{4}年\d{1,2}月\d{1,2}日/, /（[^）]+後）/],
} as const;

for (const locale of ["en", "zh-TW"] as const) {
  test(`an access badge wraps between its date and its time from now, never inside either, from 320 to 420 px (${locale})`, async ({
    page,
    context,
  }) => {
    await signIn(page, "maya@example.com", { from: "/courses" });
    await chooseLanguage(context, locale);
    await page.goto("/courses");
    const badges = page.getByRole("main").getByText(/^(Access until|Access ended on|可觀看至|觀看權限已於)/);
    await expect(badges.first()).toBeVisible();
    let wrapped = 0;
    for (let width = 320; width <= 420; width += 10) {
      await page.setViewportSize({ width, height: 900 });
      for (const badge of await badges.all()) {
        const lines = await lineTexts(badge);
        if (lines.length > 1) wrapped += 1;
        const text = (await badge.textContent())!;
        const [date, fromNow] = KEPT_TOGETHER[locale].map((piece) => piece.exec(text)?.[0]);
        expect(date, text).toBeDefined();
        for (const piece of [date, fromNow]) {
          if (piece)
            expect(
              lines.some((line) => line.includes(piece)),
              `${width} px: ${lines.join(" | ")}`,
            ).toBe(true);
        }
      }
    }
    // The widths tried do wrap some badges: the check above had something to check.
    expect(wrapped).toBeGreaterThan(0);
  });
}
