import { expect, test, type Locator, type Page } from "./test";

import { accountNavigation } from "./account-menu";
import { chooseLanguage, lineTexts, postSandboxControl, resetSandbox, signIn } from "./support";

/** Each page, the link that opens it (a tab, or Settings in the account menu at the header's right end) and its URL. */
const PAGES = [
  { name: "Overview", path: /\/$/, nav: "Main" },
  { name: "Courses", path: /\/courses$/, nav: "Main" },
  { name: "Orders", path: /\/orders$/, nav: "Main" },
  { name: "Events", path: /\/events$/, nav: "Main" },
  { name: "Settings", path: /\/settings$/, nav: "Account" },
] as const;

function pageLink(page: Page, entry: (typeof PAGES)[number]): Locator {
  return page.getByRole("navigation", { name: entry.nav }).getByRole("link", { name: entry.name, exact: true });
}

/** Opens the account menu when the page's link is in it. */
async function reveal(page: Page, entry: (typeof PAGES)[number]): Promise<void> {
  if (entry.nav !== "Account") return;
  const menu = accountNavigation(page).getByRole("button", { name: "Maya Chen" });
  await expectInsideViewport(page, menu);
  if (!(await pageLink(page, entry).isVisible())) await menu.click();
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The element's box, in the viewport, fully (a tab cut by the edge of the screen is not reachable). */
async function expectInsideViewport(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height + 0.5);
}

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

test("at 320, 360, 390 and 1280 px every page and Sign out are one tap away, without sideways scrolling", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  for (const width of [320, 360, 390, 1280]) {
    await page.setViewportSize({ width, height: width < 640 ? 740 : 900 });
    await page.goto("/");
    for (const entry of PAGES) {
      const link = pageLink(page, entry);
      await reveal(page, entry);
      await expectInsideViewport(page, link);
      await link.click();
      await expect(page).toHaveURL(entry.path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await horizontalOverflow(page), `${width} px, ${entry.name}`).toBeLessThanOrEqual(0);
      // The tab of the page shown is marked current, and stays in view (Settings has no tab).
      if (entry.nav === "Main") {
        await expect(link).toHaveAttribute("aria-current", "page");
        await expectInsideViewport(page, link);
      }
      for (const other of PAGES.filter((candidate) => candidate !== entry && candidate.nav === "Main")) {
        await expect(pageLink(page, other)).not.toHaveAttribute("aria-current", "page");
      }
    }
    // Sign out, in the account menu, on every page.
    await reveal(page, PAGES[4]);
    const signOut = accountNavigation(page).getByRole("button", { name: "Sign out", exact: true });
    await expectInsideViewport(page, signOut);
    expect(await horizontalOverflow(page), `${width} px, account menu open`).toBeLessThanOrEqual(0);
    await page.keyboard.press("Escape");
    if (width < 640) {
      // On phones the tabs are a bar at the bottom of the screen.
      const bar = await page.getByRole("navigation", { name: "Main" }).boundingBox();
      expect(Math.round(bar!.y + bar!.height)).toBe(page.viewportSize()!.height);
    }
  }
  await reveal(page, PAGES[4]);
  await accountNavigation(page).getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/signed-out/);
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
});

test("at 320 px the focus ring of every navigation link is whole: no edge or container clips it", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const checked = new Set<string>();
  const expected = ["Overview", "Courses", "Orders", "Events", "Maya Chen"];
  for (let presses = 0; presses < 20 && checked.size < expected.length; presses += 1) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element?.closest("nav")) return null;
      const style = getComputedStyle(element);
      const grow = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
      const rect = element.getBoundingClientRect();
      const ring = { left: rect.left - grow, right: rect.right + grow, top: rect.top - grow, bottom: rect.bottom + grow };
      const clips: string[] = [];
      if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) === 0) clips.push("no outline");
      if (ring.left < 0 || ring.top < 0 || ring.right > window.innerWidth || ring.bottom > window.innerHeight) clips.push("viewport");
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent);
        if (overflow.overflowX === "visible" && overflow.overflowY === "visible") continue;
        const box = parent.getBoundingClientRect();
        if (ring.left < box.left || ring.right > box.right || ring.top < box.top || ring.bottom > box.bottom) clips.push(parent.tagName);
      }
      // The element's words, without its decorations (icons, the menu's initial and arrow).
      const name = [...element.childNodes]
        .filter((node) => !(node instanceof Element && node.getAttribute("aria-hidden") === "true"))
        .map((node) => node.textContent ?? "")
        .join("")
        .trim();
      return { name, clips };
    });
    if (!focused) continue;
    expect(focused.clips, focused.name).toEqual([]);
    checked.add(focused.name);
  }
  expect([...checked].sort()).toEqual([...expected].sort());
});

for (const { locale, appName } of [
  { locale: "en", appName: "Member dashboard" },
  { locale: "zh-TW", appName: "學員儀表板" },
] as const) {
  test(`at 320 px, signed out, the header names the app in words; signed in, the account menu takes that room (${locale})`, async ({
    browser,
  }) => {
    const viewport = { width: 320, height: 640 };
    const inLanguage = async () => {
      const context = await browser.newContext({ viewport });
      await chooseLanguage(context, locale);
      return context;
    };
    const nameWidth = async (page: Page) => (await page.getByRole("banner").getByText(appName, { exact: true }).boundingBox())?.width ?? 0;

    const visitor = await (await inLanguage()).newPage();
    await visitor.goto("/signed-out");
    await expect(visitor.getByRole("banner").getByRole("link", { name: appName })).toBeVisible();
    expect(await nameWidth(visitor)).toBeGreaterThan(40);
    await visitor.context().close();

    // Signed in (through the English sign-in journey), then shown in the language.
    const member = await browser.newContext({ viewport });
    const page = await member.newPage();
    await signIn(page, "maya@example.com");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
    await chooseLanguage(member, locale);
    await page.reload();
    // Still the home link's name, for a screen reader, but not drawn.
    await expect(page.getByRole("banner").getByRole("link", { name: appName })).toBeAttached();
    expect(await nameWidth(page)).toBeLessThanOrEqual(1);
    await member.close();
  });
}

test("the skip link lands on the page's h1, in view below the sticky header", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "maya@example.com");
  await page.goto("/courses");
  await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 1500));
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
  const header = await page.getByRole("banner").boundingBox();
  const heading = await page.getByRole("heading", { level: 1 }).boundingBox();
  expect(heading!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
  expect(heading!.y + heading!.height).toBeLessThanOrEqual(844);
});

test("the header is opaque", async ({ page }) => {
  await signIn(page, "maya@example.com");
  const background = await page.getByRole("banner").evaluate((element) => getComputedStyle(element).backgroundColor);
  // rgb(...) has no alpha channel; rgba(..., a < 1) would let the page show through.
  expect(background).toMatch(/^rgb\(/);
});

test("with a slow site, a tab shows its page's skeleton at once and the data replaces it without a shift", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await postSandboxControl(page, "/__sandbox/knobs", { latencyMs: 2500 });
  try {
    const courses = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Courses", exact: true });
    await courses.click();
    const loading = page.getByRole("status").filter({ hasText: "Loading Courses…" });
    // At once (the site answers 2.5 s late): the tab's pending bar, the Courses skeleton, the tab marked current.
    await expect(courses.locator('[data-link-pending="true"]')).toBeAttached({ timeout: 2000 });
    await expect(loading).toBeAttached({ timeout: 2000 });
    await expect(courses).toHaveAttribute("aria-current", "page", { timeout: 2000 });
    // The page left is hidden, not shown beside the skeleton; no course is there yet.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Courses");
    await expect(page.getByRole("link", { name: /^Resume/ })).toHaveCount(0);
    const skeletonHeading = await page.getByRole("heading", { level: 1, name: "Courses" }).boundingBox();
    await expect(page.getByRole("link", { name: /^Resume at 1:02:05/ })).toBeVisible({ timeout: 20_000 });
    await expect(loading).toHaveCount(0);
    await expect(courses.locator('[data-link-pending="true"]')).toHaveCount(0);
    const heading = await page.getByRole("heading", { level: 1, name: "Courses" }).boundingBox();
    expect(heading!.y).toBeCloseTo(skeletonHeading!.y, 0);
  } finally {
    await postSandboxControl(page, "/__sandbox/knobs", { latencyMs: 0 });
  }
});

test("a page loaded whole shows the member's data in its first paint, with no skeleton before it", async ({ page }) => {
  // The HTML arrives whole (no Suspense boundary around a page): React's reveal of a streamed boundary waits
  // 300 ms after the first paint, so a skeleton streamed first would hide data the HTML already holds.
  await signIn(page, "maya@example.com");
  for (const [path, status] of [
    ["/courses", "Loading Courses…"],
    ["/", "Loading Overview…"],
    ["/orders", "Loading Orders…"],
    ["/events", "Loading Events…"],
    ["/settings", "Loading Settings…"],
  ] as const) {
    const response = await page.request.get(path);
    expect(response.status()).toBe(200);
    const html = await response.text();
    // (Booleans: a failure names the page, not the whole document.)
    expect(html.includes(status), `${path} streams its skeleton first`).toBe(false);
    expect(html.includes(`aria-busy="true"`), `${path} holds a busy region`).toBe(false);
  }
  const courses = await (await page.request.get("/courses")).text();
  expect(courses.includes("Resume at 1:02:05"), "the Courses HTML holds the member's courses").toBe(true);
});

test("a path no page has: the member's 404 from the server, in their language, with the navigation when signed in", async ({
  page,
  browser,
  baseURL,
}) => {
  // app/global-not-found.tsx: the HTML holds the whole page, so it shows with JavaScript off (and before
  // the scripts arrive on a phone), where a catch-all page calling notFound() sent an empty shell.
  await signIn(page, "maya@example.com");
  const withoutScripts = await browser.newContext({ baseURL, javaScriptEnabled: false });
  try {
    await withoutScripts.addCookies(await page.context().cookies());
    const signedIn = await withoutScripts.newPage();
    const answer = await signedIn.goto("/courses/no-such-course");
    expect(answer?.status()).toBe(404);
    await expect(signedIn.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(signedIn.getByText("This page does not exist.")).toBeVisible();
    await expect(signedIn.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Courses", exact: true })).toBeVisible();
    await expect(signedIn).toHaveTitle("Page not found · Member dashboard");
  } finally {
    await withoutScripts.close();
  }
  const anonymousInChinese = await browser.newContext({ baseURL, javaScriptEnabled: false, locale: "zh-TW" });
  try {
    const anonymous = await anonymousInChinese.newPage();
    expect((await anonymous.goto("/no-such-page"))?.status()).toBe(404);
    await expect(anonymous.getByRole("heading", { level: 1, name: "找不到頁面" })).toBeVisible();
    await expect(anonymous.getByRole("navigation")).toHaveCount(0);
  } finally {
    await anonymousInChinese.close();
  }
});

test("a page load asks the dashboard for nothing beyond the page: no link is prefetched", async ({ page }) => {
  // Every page is rendered per request; a prefetch could only fetch a route's tree, which a click fetches
  // anyway, and on Overview eight of them cost the server twice the page itself.
  const prefetches: string[] = [];
  page.on("request", (request) => {
    const headers = request.headers();
    if (headers["next-router-prefetch"] || headers["next-router-segment-prefetch"]) prefetches.push(request.url());
  });
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await page.waitForLoadState("networkidle");
  // Next.js prefetches links in view once the browser is idle, and again on hover.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Orders", exact: true }).hover();
  await page.getByRole("link", { name: /^See (all|it on)/ }).hover();
  await page.waitForTimeout(1500);
  expect(prefetches).toEqual([]);
  // The click itself still opens the page.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Orders", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
});

test("desktop Overview: focus follows the visual order, Continue watching, then Ending soon, then the events", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await page.getByRole("main").focus();
  const sections: string[] = [];
  for (let presses = 0; presses < 30; presses += 1) {
    await page.keyboard.press("Tab");
    const section = await page.evaluate(() => document.activeElement?.closest("main section")?.getAttribute("aria-labelledby") ?? null);
    if (section && sections.at(-1) !== section) sections.push(section);
  }
  expect(sections.slice(0, 3)).toEqual(["overview-continue", "overview-ending", "overview-events"]);
  // ...and that is the visual order: each section below the one before it.
  const boxes = [];
  for (const id of sections.slice(0, 3)) boxes.push((await page.locator(`section[aria-labelledby=${id}]`).boundingBox())!);
  expect(boxes[1]!.y).toBeGreaterThanOrEqual(boxes[0]!.y + boxes[0]!.height);
  expect(boxes[2]!.y).toBeGreaterThanOrEqual(boxes[1]!.y + boxes[1]!.height);
});

test("an online event is joined by a link named after it; a past event offers no link to its meeting", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await page.goto("/events");
  const join = page.getByRole("link", { name: "Join online: Live Q&A: Watercolor skies" });
  await expect(join).toHaveAttribute("href", "https://meet.example.com/demo-academy/watercolor-qa");
  // A target of its own, at least 24 px tall on a desktop (WCAG 2.2, 2.5.8) and 44 px on a phone.
  expect((await join.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  await page.setViewportSize({ width: 390, height: 844 });
  expect((await join.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole("heading", { name: "Python office hours" })).toBeVisible();
  await expect(page.locator('a[href="https://meet.example.com/demo-academy/python-office-hours"]')).toHaveCount(0);
});

test("Settings: the site's link is a target of its own, 24 px tall on a desktop and 44 px on a phone", async ({ page }) => {
  await signIn(page, "maya@example.com", { from: "/settings" });
  const site = page.getByRole("link", { name: "Demo Academy (sandbox)", exact: true });
  await expect(site).toHaveAttribute("href", /^http:\/\/127\.0\.0\.1:\d+\/?$/);
  expect((await site.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  await page.setViewportSize({ width: 390, height: 844 });
  expect((await site.boundingBox())!.height).toBeGreaterThanOrEqual(44);
});

test.describe("Events in 繁體中文, in New York", () => {
  test.use({ timezoneId: "America/New_York" });

  test("an event's zone, （GMT−5）, is never split over two lines, at any width from 320 to 420 px", async ({ page, context }) => {
    await signIn(page, "maya@example.com", { from: "/events" });
    await chooseLanguage(context, "zh-TW");
    await page.goto("/events");
    await expect(page.getByRole("heading", { level: 1, name: "活動" })).toBeVisible();
    const zoned = page.getByRole("main").locator("time").filter({ hasText: "（GMT" });
    await expect(zoned.first()).toBeVisible();
    for (let width = 320; width <= 420; width += 10) {
      await page.setViewportSize({ width, height: 900 });
      for (const time of await zoned.all()) {
        const lines = await lineTexts(time);
        // No line ends inside the parentheses, and none starts with their tail.
        for (const line of lines) expect(line, `${width} px: ${lines.join(" | ")}`).not.toMatch(/（[^）]*$|^[^（]*）/);
      }
    }
  });

  test("Settings' access granted wraps between its time and its zone, (Eastern Time), never inside either, from 320 to 420 px", async ({
    page,
  }) => {
    await signIn(page, "maya@example.com", { from: "/settings" });
    const granted = page.getByRole("main").locator("time").filter({ hasText: "(Eastern Time)" });
    await expect(granted).toBeVisible();
    const [, time, zone] = /^(.+) \((.+)\)$/.exec((await granted.textContent())!)!;
    for (let width = 320; width <= 420; width += 10) {
      await page.setViewportSize({ width, height: 900 });
      const lines = await lineTexts(granted);
      for (const piece of [time!, zone!])
        expect(
          lines.some((line) => line.includes(piece)),
          `${width} px: ${lines.join(" | ")}`,
        ).toBe(true);
    }
  });
});

for (const locale of ["en", "zh-TW"] as const) {
  test(`signed in, no page scrolls sideways at any width from 320 to 1280 px (${locale})`, async ({ page }) => {
    await signIn(page, "maya@example.com");
    await chooseLanguage(page.context(), locale);
    for (const path of ["/", "/courses", "/orders", "/events", "/settings"]) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      for (const width of [320, 360, 390, 480, 640, 700, 768, 1024, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        // Where the tabs move up into the header (640 px), the app's name gives them the room until 768 px.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
      }
    }
  });
}

test("a long member name is cut short in the header and never pushes a page sideways", async ({ page }) => {
  await signIn(page, "maya@example.com", { from: "/courses" });
  const accountButton = page.getByRole("navigation", { name: "Account" }).getByRole("button");
  // The sandbox's members have short names: this one is drawn as a member with a long name would be.
  await expect(accountButton).toHaveAccessibleName("Maya Chen");
  await accountButton.evaluate((button) => {
    const shown = [...button.querySelectorAll("span")].find((span) => span.textContent === "Maya Chen")!;
    shown.textContent = "Maximiliana Alexandra Papadopoulou-Richardson";
  });
  await expect(accountButton).toHaveAccessibleName("Maximiliana Alexandra Papadopoulou-Richardson");
  for (const width of [320, 390, 640, 700, 768, 800, 900, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `at ${width} px`).toBeLessThanOrEqual(0);
    const button = (await accountButton.boundingBox())!;
    expect(button.x + button.width, `the menu ends inside the page at ${width} px`).toBeLessThanOrEqual(width);
  }
});
