import { expect, test, type Browser, type Page } from "./test";

import { getAccountData } from "../../sandbox/data/account";
import {
  chooseLanguage,
  endsWithin30Days,
  gotoWithScriptsHeld,
  hydrated,
  isHydrated,
  postSandboxControl,
  resetSandbox,
  signIn,
  SITE_URL,
} from "./support";

/*
 * A conforming site on its bad days (issue 10): a lower cap on `first`, cursors that expire, a list that
 * moves between its pages, a hang, huge answers, only the seed's fields. The dashboard remembers what a
 * site taught it for the life of its process (a cap, the fields it lacks), so this file runs after the
 * others (its own project in playwright.config.ts, which depends on the others) and its tests run in an
 * order where each lesson leaves the next test meaningful: caps from high to low, seed-only last.
 */

const DATA_PAGES = [
  ["/", "Your overview could not be loaded."],
  ["/courses", "Your courses could not be loaded."],
  ["/orders", "Your orders could not be loaded."],
  ["/events", "Your events could not be loaded."],
] as const;

/** Orders' Show more button, also while it loads and reads "Loading more…". */
function showMoreUnderEitherName(page: Page) {
  return page.getByRole("button", { name: /^(Show more|Loading more…)$/ });
}

async function setKnobs(page: Page, knobs: Record<string, unknown>): Promise<void> {
  await postSandboxControl(page, "/__sandbox/knobs", knobs);
}

async function accountApiRequests(page: Page): Promise<number> {
  const log = (await (await page.request.get(`${SITE_URL}/__sandbox/requests`)).json()) as { endpoint: string }[];
  return log.filter((entry) => entry.endpoint === "graphql").length;
}

async function signedInPage(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  return page;
}

test.describe.configure({ mode: "serial" });

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

test("at caps of 100, 50 and 10 on `first`, every page shows all of its data", async ({ browser, page }) => {
  test.setTimeout(180_000);
  const kai = await signedInPage(browser, "kai@example.com");
  const maya = await signedInPage(browser, "maya@example.com");
  for (const cap of [100, 50, 10]) {
    await setKnobs(page, { maxPageSize: cap });

    // Overview weighs all 130 enrollments: every one ending within 30 days, wherever it sits in the pages.
    const endingSoonCount = getAccountData("kai@example.com", Date.now()).enrollments.filter((enrollment) =>
      endsWithin30Days(enrollment, Date.now()),
    ).length;
    expect(endingSoonCount).toBeGreaterThan(0);
    await kai.goto("/");
    const endingSoon = kai.getByRole("region", { name: "Access ending soon" });
    // The Overview shows the three soonest and counts them all in "See all N" (issue 24).
    await expect(endingSoon.getByRole("listitem"), `cap ${cap}`).toHaveCount(Math.min(3, endingSoonCount));
    await expect(endingSoon.getByRole("link", { name: new RegExp(`^See all ${endingSoonCount}\\b`) }), `cap ${cap}`).toBeVisible();
    await expect(
      kai
        .getByRole("region", { name: "Continue watching" })
        .getByRole("link", { name: /^Resume/ })
        .first(),
    ).toBeVisible();

    await kai.goto("/courses");
    await expect(kai.getByText(/^Showing \d+\sof 130$/).filter({ visible: true })).toBeVisible();
    const cards = kai.getByRole("article");
    const more = kai.getByRole("button", { name: /^Show \d+\smore/ });
    for (let round = 0; round < 20 && (await more.isVisible()); round += 1) {
      const before = await cards.count();
      await more.click();
      await expect.poll(() => cards.count()).toBeGreaterThan(before);
    }
    await expect(cards, `cap ${cap}`).toHaveCount(130);
    await expect(kai.getByText("Showing 130 of 130", { exact: true }).filter({ visible: true })).toBeVisible();

    await maya.goto("/orders");
    await expect(maya.getByText(/NT\$/).first()).toBeVisible();

    await maya.goto("/events");
    await expect(maya.getByRole("region", { name: "Upcoming" }).getByRole("listitem").first()).toBeVisible();
    await expect(maya.getByRole("region", { name: "Past" }).getByRole("listitem").first()).toBeVisible();
  }
});

test("a site whose cursors expire: Show more reads the orders again from the top and goes on", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const orderCount = getAccountData("maya@example.com", Date.now()).orders.length;
  // Below Maya's orders (the dashboard learns the lower cap), so Orders has a next page.
  const cap = orderCount - 1;
  // The page's render learns the cap; its data route knows it from then on (one lesson per process).
  await setKnobs(page, { maxPageSize: cap });
  for (const cursorTtlSeconds of [0, 600]) {
    await setKnobs(page, { cursorTtlSeconds, clockOffsetMs: 0 });
    await page.goto("/orders");
    const orders = page.getByRole("article");
    await expect(orders).toHaveCount(cap);
    const more = page.getByRole("button", { name: "Show more" });
    await hydrated(more);
    // Eleven minutes later by the site's clock: with a ten-minute lifetime, the cursor Orders holds has expired.
    await setKnobs(page, { clockOffsetMs: 11 * 60 * 1000 });
    const before = await accountApiRequests(page);
    const shownBefore = await orders.getByRole("heading", { level: 2 }).allTextContents();
    await more.focus();
    await more.click();
    await expect(orders, `cursorTtlSeconds ${cursorTtlSeconds}`).toHaveCount(orderCount);
    await expect(showMoreUnderEitherName(page)).toHaveCount(0);
    // Focus is on the order Show more added, not back at the top of the page with the button gone.
    const focused = page.locator("li:focus").getByRole("heading", { level: 2 });
    await expect(focused).toHaveCount(1);
    expect(shownBefore).not.toContain(await focused.textContent());
    await expect(page.getByRole("alert").filter({ hasText: "Your orders could not be loaded." })).toHaveCount(0);
    // Good for ever: the next page. Expired: refused, the first page again, the next page with its fresh cursor.
    expect(await accountApiRequests(page), `cursorTtlSeconds ${cursorTtlSeconds}`).toBe(before + (cursorTtlSeconds === 0 ? 1 : 3));
  }
});

test("an order placed while Orders is open: Show more shows each order once, and a reload shows the new one", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const orderCount = getAccountData("maya@example.com", Date.now()).orders.length;
  await setKnobs(page, { maxPageSize: orderCount - 1 });
  await page.goto("/orders");
  const headings = page.getByRole("article").getByRole("heading", { level: 2 });
  await expect(headings).toHaveCount(orderCount - 1);
  const more = page.getByRole("button", { name: "Show more" });
  await hydrated(more);
  // Bought in another tab: the site's list gains one at the top, and its next page starts one item earlier.
  await setKnobs(page, { newOrders: 1 });
  await more.click();
  // The list is read once it has every order and the button is gone, not while it reads "Loading more…".
  await expect(headings).toHaveCount(orderCount);
  await expect(showMoreUnderEitherName(page)).toHaveCount(0);
  const shown = await headings.allTextContents();
  expect(new Set(shown).size).toBe(orderCount);
  await page.reload();
  await expect(headings.filter({ hasText: /NEW1$/ })).toHaveCount(1);
});

test("Orders: the URL keeps how many pages are shown; Show more pressed before the page is interactive asks the server", async ({
  page,
}) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const orderCount = getAccountData("maya@example.com", Date.now()).orders.length;
  await setKnobs(page, { maxPageSize: orderCount - 1 });
  const orders = page.getByRole("article");

  // The page's JavaScript held back: the press is the server's HTML alone, a form asking the server for two pages.
  const releaseScripts = await gotoWithScriptsHeld(page, "/orders");
  await expect(orders).toHaveCount(orderCount - 1);
  await page.getByRole("button", { name: "Show more" }).click();
  await expect(page).toHaveURL(new RegExp(`/orders\\?pages=2#item-${orderCount}$`));
  await expect(orders).toHaveCount(orderCount);
  await expect(showMoreUnderEitherName(page)).toHaveCount(0);
  releaseScripts();

  // Once the page is interactive, Show more stays on the page and writes the count: a reload shows as many.
  await page.goto("/orders");
  const more = page.getByRole("button", { name: "Show more" });
  await hydrated(more);
  await page.evaluate(() => document.documentElement.setAttribute("data-before-press", ""));
  const historyBefore = await page.evaluate(() => history.length);
  await more.click();
  await expect(orders).toHaveCount(orderCount);
  await expect(page).toHaveURL(/\/orders\?pages=2$/);
  await expect(page.locator("html[data-before-press]")).toHaveCount(1);
  // Nor a jump to the fragment the form names, which adds an entry: one Back still leaves Orders.
  expect(await page.evaluate(() => history.length)).toBe(historyBefore);
  await page.reload();
  await expect(orders).toHaveCount(orderCount);
  await expect(showMoreUnderEitherName(page)).toHaveCount(0);
});

test("a site that hangs: each page says the site did not answer in time, within 10 s, with Retry", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await setKnobs(page, { latencyMs: 20_000 });
  // The pages side by side, each in a tab of its own: each waits for the dashboard's deadline on its own call.
  const tabs = [page, ...(await Promise.all(DATA_PAGES.slice(1).map(() => page.context().newPage())))];
  const before = await accountApiRequests(page);
  await Promise.all(
    DATA_PAGES.map(async ([path, title], index) => {
      const tab = tabs[index]!;
      const started = Date.now();
      await tab.goto(path, { timeout: 15_000 });
      const alert = tab.getByRole("alert").filter({ hasText: title });
      await expect(alert).toContainText("The site did not answer in time.", { timeout: 10_000 });
      expect(Date.now() - started, path).toBeLessThan(10_000);
      await expect(alert.getByRole("button", { name: "Retry" })).toBeVisible();
    }),
  );
  // One request per page view, no retry on the server or in the browser: each page's message needs a call of its
  // own that ran out of time, so four messages from four calls leave none for a second try.
  expect(await accountApiRequests(page)).toBe(before + DATA_PAGES.length);
  // Retry is the member's: one more request, and the same clear message. By its end, a retry any page had
  // scheduled for itself would have been counted too.
  const events = tabs[DATA_PAGES.findIndex(([path]) => path === "/events")]!;
  const alert = events.getByRole("alert").filter({ hasText: "Your events could not be loaded." });
  const retry = alert.getByRole("button", { name: "Retry" });
  // The error is in the first HTML: click once the page has hydrated (the page then shows it is loading).
  await expect(async () => {
    await retry.click();
    await expect(alert).toBeHidden({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await expect(alert).toContainText("The site did not answer in time.", { timeout: 12_000 });
  expect(await accountApiRequests(page)).toBe(before + DATA_PAGES.length + 1);
});

test("a query the site refuses is sent once per page view, and again only on Retry", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await setKnobs(page, { graphqlMissingFields: ["orders"] });
  const before = await accountApiRequests(page);
  await page.goto("/orders");
  const alert = page.getByRole("alert").filter({ hasText: "Your orders could not be loaded." });
  await expect(alert).toContainText("The site could not answer this request.");
  // Neither time nor the window's focus brings a second request.
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await page.waitForTimeout(3_000);
  expect(await accountApiRequests(page)).toBe(before + 1);
  await expect(async () => {
    await alert.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => accountApiRequests(page), { timeout: 1_000 }).toBe(before + 2);
  }).toPass({ timeout: 10_000 });
  await expect(alert).toContainText("The site could not answer this request.");
});

test("Retry pressed before the page is interactive loads the page again from the server; once it is, Retry asks again in place", async ({
  page,
}) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await setKnobs(page, { failures: { graphql: { mode: "status", status: 503 } } });
  // A slow phone on the second page of orders: the error is in the first HTML, the scripts not run yet.
  const releaseScripts = await gotoWithScriptsHeld(page, "/orders?page=2");
  const alert = page.getByRole("alert").filter({ hasText: "Your orders could not be loaded." });
  const retry = alert.getByRole("button", { name: "Retry" });
  await expect(retry).toBeVisible();
  expect(await isHydrated(retry), "the press comes before hydration").toBe(false);

  // The site answers again; the press loads the same address from the server, whose page has the orders.
  await setKnobs(page, { failures: { graphql: null } });
  const reload = page.waitForRequest((request) => request.isNavigationRequest() && request.url().endsWith("/orders?page=2"));
  await retry.click();
  await reload;
  await expect(page.getByText(/^Order DA/).first()).toBeVisible();
  await expect(alert).toBeHidden();
  releaseScripts();

  // Interactive: Retry asks the data route again, in place, with no page load.
  await setKnobs(page, { failures: { graphql: { mode: "status", status: 503 } } });
  await page.goto("/orders");
  await hydrated(retry);
  await setKnobs(page, { failures: { graphql: null } });
  const documentLoads: string[] = [];
  page.on("request", (request) => {
    if (request.isNavigationRequest()) documentLoads.push(request.url());
  });
  await retry.click();
  await expect(page.getByText(/^Order DA/).first()).toBeVisible();
  expect(documentLoads).toEqual([]);
});

test("a site that limits how often it answers: each page says it is busy and for how long, in the member's language", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  // 429 with a wait of 30 seconds, as most sites say it.
  await setKnobs(page, { failures: { graphql: { mode: "status", status: 429, retryAfter: "30" } } });
  for (const [path, title] of DATA_PAGES) {
    const before = await accountApiRequests(page);
    await page.goto(path);
    const alert = page.getByRole("alert").filter({ hasText: title });
    await expect(alert).toContainText("The site is busy right now. Please try again in 30 seconds.");
    await expect(alert.getByRole("button", { name: "Retry" })).toBeVisible();
    // Asked once: neither the server nor the browser asks a busy site again on its own.
    expect(await accountApiRequests(page), path).toBe(before + 1);
  }
  // A wait in minutes, and in Chinese.
  await setKnobs(page, { failures: { graphql: { mode: "status", status: 429, retryAfter: "150" } } });
  await chooseLanguage(page.context(), "zh-TW");
  await page.goto("/courses");
  await expect(page.getByRole("alert").filter({ hasText: "無法載入你的課程。" })).toContainText("網站目前忙碌中，請於 3 分鐘後再試。");
  await chooseLanguage(page.context(), "en");
  // GitHub's and Shopify's manner: a "throttled" GraphQL error at 200, without a wait. Retry, once the page is
  // interactive, asks in place and says so again; once the site answers, the courses are there.
  await setKnobs(page, { failures: { graphql: { mode: "throttled" } } });
  await page.goto("/courses");
  const alert = page.getByRole("alert").filter({ hasText: "Your courses could not be loaded." });
  await expect(alert).toContainText("The site is busy right now. Please try again in a moment.");
  const retry = alert.getByRole("button", { name: "Retry" });
  await hydrated(retry);
  const before = await accountApiRequests(page);
  await retry.click();
  await expect.poll(() => accountApiRequests(page)).toBe(before + 1);
  await expect(alert).toContainText("The site is busy right now. Please try again in a moment.");
  await setKnobs(page, { failures: { graphql: null } });
  await retry.click();
  await expect(alert).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Resume/ }).first()).toBeVisible();
});

test("a site that writes its amounts as decimal strings: Orders shows the same amounts, refunds and line items", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const ordersAsShown = async () => {
    await page.goto("/orders");
    await expect(page.getByText(/^Order DA/).first()).toBeVisible();
    return page.getByRole("main").innerText();
  };
  const asNumbers = await ordersAsShown();
  // The amounts as a Decimal scalar writes them ("3200"), as Shopify's and graphql-ruby's BigDecimal do.
  await setKnobs(page, { decimalAmounts: true });
  expect(await ordersAsShown()).toBe(asNumbers);
  // No error (Next.js's route announcer is an alert too, an empty one).
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveCount(0);
});

test("a site that sends its dates and times without an offset: each page shows the same times, before its scripts run and after", async ({
  browser,
  page,
}) => {
  // A member in another zone than the server's: a time without an offset would read as another time in each.
  const context = await browser.newContext({ timezoneId: "America/Los_Angeles" });
  const member = await context.newPage();
  const problems: string[] = [];
  await signIn(member, "maya@example.com");
  // From here on, the dashboard's pages alone (the site's sign-in page has no favicon).
  member.on("console", (message) => void (message.type() === "error" && problems.push(`${message.text()} ${message.location().url}`)));
  member.on("pageerror", (error) => problems.push(error.message));
  await expect
    .poll(async () => decodeURIComponent((await context.cookies()).find(({ name }) => name === "tz")?.value ?? ""))
    .toBe("America/Los_Angeles");
  const main = member.getByRole("main");
  const tabs = member.getByRole("navigation", { name: "Main" }).getByRole("link");
  const shown = new Map<string, string>();
  for (const [path] of DATA_PAGES) {
    await member.goto(path);
    await hydrated(tabs.first());
    shown.set(path, await main.innerText());
  }
  expect(shown.get("/events")).toMatch(/\d:\d\d/);

  await setKnobs(page, { dateTimesWithoutOffset: true });
  for (const [path] of DATA_PAGES) {
    const releaseScripts = await gotoWithScriptsHeld(member, path);
    expect(await main.innerText(), `${path}, the server's HTML`).toBe(shown.get(path));
    releaseScripts();
    await hydrated(tabs.first());
    expect(await main.innerText(), `${path}, once interactive`).toBe(shown.get(path));
  }
  expect(problems).toEqual([]);
  await context.close();
});

test("answers padded to 10 MB: each page says the answer was too large", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await setKnobs(page, { answerPaddingBytes: { graphql: 10 * 1024 * 1024, mcp: 10 * 1024 * 1024 } });
  for (const [path, title] of DATA_PAGES) {
    await page.goto(path);
    await expect(page.getByRole("alert").filter({ hasText: title })).toContainText(
      "The site's answer was too large for the dashboard to read.",
    );
  }
  // With the site's MCP beta on, an MCP answer too large to read is no assistant to offer: Settings shows
  // none (issue 24), and the connections route says why instead of failing.
  await postSandboxControl(page, "/__sandbox/mcp-beta", { enabled: true });
  const connections = await page.request.get("/api/account/connections");
  expect(connections.status()).toBe(200);
  expect(await connections.json()).toMatchObject({ available: false, reason: "too_large" });
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "What this app may do" })).toBeVisible();
  await expect(page.getByText("Connect an AI assistant (beta)")).toHaveCount(0);
});

test("a site whose backend fails for course names and progress: Courses still lists every course, with Resume", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await page.goto("/courses");
  const courses = page.getByRole("article");
  await expect(courses.first()).toBeVisible();
  const count = await courses.count();
  await expect(page.getByRole("progressbar").first()).toBeVisible();

  // The site answers the rest, those two fields null with an error naming each (a GraphQL partial result).
  await setKnobs(page, { graphqlFieldErrors: ["EnrolledCourse.name", "EnrolledCourse.completionPercentage"] });
  const slugs = getAccountData("maya@example.com", Date.now()).enrollments.map((enrollment) => enrollment.slug);
  const check = async () => {
    await expect(courses).toHaveCount(count);
    await expect(page.getByRole("progressbar")).toHaveCount(0);
    // Each course is named as for a site that gives no names: by its slug.
    await expect(page.getByRole("heading", { name: slugs[0], exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: /^Resume/ }).first()).toHaveAttribute("href", new RegExp(`^${SITE_URL}/courses/`));
    await expect(page.getByRole("alert").filter({ hasText: "Your courses could not be loaded." })).toHaveCount(0);
  };
  await page.reload();
  await check();
  // A tab click renders it on the server again, through the same path.
  await page.goto("/");
  const coursesTab = page.getByRole("navigation").getByRole("link", { name: "Courses", exact: true }).first();
  await hydrated(coursesTab);
  await coursesTab.click();
  await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
  await check();
});

test("a site that fails to say where each course was left off: no course begun reads as never started, each opens at the site", async ({
  page,
}) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await setKnobs(page, { graphqlFieldErrors: ["EnrolledCourse.lastWatchedLecture"] });

  await page.reload();
  const continueWatching = page.getByRole("region", { name: "Continue watching" });
  await expect(continueWatching.getByText(/^Where you left off in (1\scourse|\d+\scourses) could not be loaded\./)).toBeVisible();
  await expect(continueWatching.getByText(/Nothing in progress/)).toHaveCount(0);
  const allCourses = continueWatching.getByRole("link", { name: "All courses" });
  await hydrated(allCourses);
  await allCourses.click();
  await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();

  const openCourse = page.getByRole("link", { name: /^Open course – / });
  await expect(openCourse.first()).toHaveAttribute("href", new RegExp(`^${SITE_URL}/courses/[\\w-]+$`));
  await expect(page.getByText("Where you left off could not be loaded.").first()).toBeVisible();
  await expect(page.getByRole("link", { name: /^(Resume|Watch again)/ })).toHaveCount(0);
  // A course the site reports at 0 % is one never started: Start course, and nothing said of where it was left off.
  const notStarted = page.getByRole("radio", { name: /^Not started/ });
  await hydrated(notStarted);
  await notStarted.check();
  await expect(page.getByRole("link", { name: /^Start course – / }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: /^Open course – / })).toHaveCount(0);
  await expect(page.getByText("Where you left off could not be loaded.")).toHaveCount(0);
  await expect(page.getByRole("alert").filter({ hasText: "Your courses could not be loaded." })).toHaveCount(0);
});

test("a site that fails to give the event registrations: the Overview shows the courses, and says the events did not load", async ({
  page,
}) => {
  await signIn(page, "maya@example.com");
  await setKnobs(page, { graphqlFieldErrors: ["EventRegistration.event"] });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await expect(
    page
      .getByRole("region", { name: "Continue watching" })
      .getByRole("link", { name: /^Resume/ })
      .first(),
  ).toBeVisible();
  await expect(
    page
      .getByText("Your event registrations could not be loaded this time. Try again later, or open Events.")
      .filter({ visible: true })
      .first(),
  ).toBeVisible();
});

test("a site whose lists hold items it cannot give: each page shows the rest and says how many are missing", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const maya = getAccountData("maya@example.com", Date.now());
  const [gone, kept] = [maya.enrollments[0]!, maya.enrollments[1]!];
  // The newest order: on the first page of Orders, whatever page size the dashboard learned from a site before.
  const newestOrder = maya.orders.toSorted((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]!;
  // The lists' items are nullable at this site; these come back null, each with an error naming it.
  await setKnobs(page, { graphqlUnavailableItems: [gone.slug, newestOrder.id, maya.eventRegistrations[0]!.id] });

  await page.goto("/courses");
  await expect(page.getByText("1 course could not be loaded from the site.")).toBeVisible();
  await expect(page.getByRole("heading", { name: kept.name, exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: gone.name, exact: true })).toHaveCount(0);
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveCount(0);
  await page.goto("/orders");
  await expect(page.getByText("1 order could not be loaded from the site.")).toBeVisible();
  await expect(page.getByRole("article").first()).toBeVisible();
  await page.goto("/events");
  await expect(page.getByText("1 event registration could not be loaded from the site.")).toBeVisible();
  await page.goto("/");
  await expect(
    page.getByRole("region", { name: "Continue watching" }).getByText("1 course could not be loaded from the site."),
  ).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Upcoming events" }).getByText("1 event registration could not be loaded from the site."),
  ).toBeVisible();

  // Every course gone: not "You're not enrolled in any course yet", but how many the site could not give.
  await setKnobs(page, { graphqlUnavailableItems: maya.enrollments.map((enrollment) => enrollment.slug) });
  await page.goto("/courses");
  await expect(page.getByText(`${maya.enrollments.length} courses could not be loaded from the site.`)).toBeVisible();
  await expect(page.getByText("You're not enrolled in any course yet")).toHaveCount(0);
  // Nor does the Overview say that nothing is in progress: any of them may be.
  await page.goto("/");
  const continueWatching = page.getByRole("region", { name: "Continue watching" });
  await expect(continueWatching.getByText(`${maya.enrollments.length} courses could not be loaded from the site.`)).toBeVisible();
  await expect(continueWatching.getByText(/Nothing in progress/)).toHaveCount(0);
  await expect(continueWatching.getByRole("list")).toHaveCount(0);
  // Nor that no course access ends soon: it says so of the courses it loaded, none here.
  const endingSoon = page.getByRole("region", { name: "Access ending soon" });
  await expect(endingSoon.getByText("No course that loaded here has access ending in the next 30 days.")).toBeVisible();
  await expect(endingSoon.getByText(/No course access ends/)).toHaveCount(0);

  // The site gives them again: Retry beside the note asks for them, in place, on the Overview and on Courses.
  await page.goto("/courses");
  await expect(page.getByText(`${maya.enrollments.length} courses could not be loaded from the site.`)).toBeVisible();
  await page.goto("/");
  await setKnobs(page, { graphqlUnavailableItems: [] });
  await continueWatching.getByRole("button", { name: "Retry" }).click();
  await expect(continueWatching.getByText(/could not be loaded from the site/)).toHaveCount(0);
  await expect(continueWatching.getByRole("link", { name: /^Resume/ }).first()).toBeVisible();
  await setKnobs(page, { graphqlUnavailableItems: [gone.slug] });
  await page.goto("/courses");
  await expect(page.getByText("1 course could not be loaded from the site.")).toBeVisible();
  await setKnobs(page, { graphqlUnavailableItems: [] });
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByText(/could not be loaded from the site/)).toHaveCount(0);
  await expect(page.getByRole("heading", { name: gone.name, exact: true })).toBeVisible();
});

test("a site with only the seed's fields: every page renders what it can, and Resume still works", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await setKnobs(page, { graphqlSeedFieldsOnly: true });

  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("maya@example.com");
  const resume = page
    .getByRole("region", { name: "Continue watching" })
    .getByRole("link", { name: /^Resume/ })
    .first();
  await expect(resume).toHaveAttribute("href", new RegExp(`^${SITE_URL}/courses/[\\w-]+/lectures/[\\w-]+\\?t=\\d+$`));
  await expect(
    page.getByText("This site does not share your event registrations with the dashboard.").filter({ visible: true }).first(),
  ).toBeVisible();

  await page.goto("/courses");
  await expect(page.getByRole("article").first()).toBeVisible();
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  await expect(page.getByRole("article").locator("img")).toHaveCount(0);
  const courseResume = page.getByRole("link", { name: /^Resume/ }).first();
  const href = await courseResume.getAttribute("href");
  expect(href).toMatch(new RegExp(`^${SITE_URL}/courses/[\\w-]+/lectures/[\\w-]+\\?t=\\d+$`));
  // The link leads to the lecture on the site.
  expect((await page.request.get(href ?? "")).ok()).toBe(true);

  for (const [path, title] of DATA_PAGES.slice(2)) {
    await page.goto(path);
    await expect(page.getByRole("alert").filter({ hasText: title })).toContainText("The site could not answer this request.");
  }
});
