import { expect, test, type Page } from "./test";

import { APP_URL, expectNoSeriousAxeViolations, resetSandbox, signIn } from "./support";

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

function tab(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
}

/** What the browser keeps on disk for the dashboard's origin: none of it may hold the member's data. */
async function persistentStorage(page: Page) {
  return page.evaluate(async () => ({
    localStorage: Object.keys(localStorage),
    sessionStorage: Object.keys(sessionStorage),
    caches: "caches" in window ? await caches.keys() : [],
    databases: "databases" in indexedDB ? (await indexedDB.databases()).map((database) => database.name) : [],
  }));
}

test("offline, seen pages come back from memory with the time they were seen, unseen ones say so with Retry, and the app stays", async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const documents: string[] = [];
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) documents.push(frame.url());
  });
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  // Seen: Overview and Courses (Orders, Events and Settings are not). Overview has the same Resume link:
  // Courses' heading first, so that Courses is on screen (its data loaded) before Overview is opened again.
  await tab(page, "Courses").click();
  await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Resume at 1:02:05/ })).toBeVisible();
  await tab(page, "Overview").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const navigationsBefore = documents.length;

  await context.setOffline(true);
  await expect(page.getByRole("status").filter({ hasText: "You're offline" })).toBeVisible();

  // A seen page: its last data, and when it was seen.
  await tab(page, "Courses").click();
  await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Resume at 1:02:05/ })).toBeVisible();
  // The browser asks for en-US (Playwright's default): a 12-hour clock.
  await expect(page.getByText(/^Offline: showing what you saw at \d{1,2}:\d\d\s[AP]M\.$/)).toBeVisible();
  await expect(tab(page, "Courses")).toHaveAttribute("aria-current", "page");

  // A page not seen: an offline state of the app, with Retry that says it is still offline.
  await tab(page, "Orders").click();
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "You're offline" })).toBeVisible();
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByText("Still offline. Try again once your connection is back.")).toBeVisible();
  await expect(tab(page, "Orders")).toHaveAttribute("aria-current", "page");
  await expectNoSeriousAxeViolations(page);

  // Settings (from the header) and back to the page the router holds.
  const account = page.getByRole("navigation", { name: "Account" });
  await account.getByRole("button", { name: "Maya Chen" }).click();
  await account.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "You're offline" })).toBeVisible();
  await tab(page, "Overview").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await tab(page, "Courses").click();
  await expect(page.getByRole("link", { name: /^Resume at 1:02:05/ })).toBeVisible();

  // Never the browser's error page: the document was never replaced while offline.
  expect(documents.slice(navigationsBefore)).toEqual([]);
  expect(page.url().startsWith(APP_URL)).toBe(true);
  // Nothing personal went to persistent storage.
  expect(await persistentStorage(page)).toEqual({ localStorage: [], sessionStorage: [], caches: [], databases: [] });

  // Back online: the page on screen (Courses) is loaded once, fresh.
  const refreshes: string[] = [];
  page.on("request", (request) => {
    if (request.headers()["next-router-prefetch"]) return;
    if (request.url().startsWith(`${APP_URL}/courses`) || request.url().startsWith(`${APP_URL}/api/account/courses`)) {
      refreshes.push(request.url());
    }
  });
  await context.setOffline(false);
  await expect(page).toHaveURL(/\/courses$/);
  await expect(page.getByText(/^Offline: showing/)).toHaveCount(0);
  await expect(page.getByRole("link", { name: /^Resume at 1:02:05/ })).toBeVisible();
  await expect.poll(() => refreshes.length).toBeGreaterThanOrEqual(1);
  await page.waitForTimeout(1500);
  expect(refreshes).toHaveLength(1);
});

test("offline on the page the router shows, the data stays and coming back online asks for it once", async ({ page, context }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const refreshes: string[] = [];
  page.on("request", (request) => {
    if (request.headers()["next-router-prefetch"]) return;
    if (request.url().startsWith(`${APP_URL}/api/account/overview`) || request.url() === `${APP_URL}/`) refreshes.push(request.url());
  });
  await context.setOffline(true);
  await expect(page.getByRole("status").filter({ hasText: "You're offline" })).toBeVisible();
  await context.setOffline(false);
  await expect.poll(() => refreshes.length).toBe(1);
  await page.waitForTimeout(1500);
  expect(refreshes).toHaveLength(1);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
});

test("the Courses status line is one live region: hidden behind a page opened offline it is not read, shown it is", async ({
  page,
  context,
}) => {
  const showing = /^Showing \d+\sof \d+$/;
  const statusLines = () => page.getByRole("status").filter({ hasText: showing });
  await signIn(page, "maya@example.com", { from: "/courses" });
  await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
  await expect(statusLines()).toHaveCount(1);
  await expect(statusLines()).toBeVisible();
  expect((await page.locator("body").ariaSnapshot()).match(/Showing \d+\sof \d+/g)).toHaveLength(1);

  // Offline, Overview opens over the router's Courses page, which stays mounted (its status line in the DOM) but hidden.
  await context.setOffline(true);
  await expect(page.getByRole("status").filter({ hasText: "You're offline" })).toBeVisible();
  await tab(page, "Overview").click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByText(showing)).toHaveCount(1);
  await expect(page.getByText(showing)).toBeHidden();
  await expect(statusLines()).toHaveCount(0);
  expect(await page.locator("body").ariaSnapshot()).not.toMatch(/Showing \d+\sof \d+/);

  // Back to Courses: the one status line is shown and read again.
  await tab(page, "Courses").click();
  await expect(statusLines()).toHaveCount(1);
  await expect(statusLines()).toBeVisible();
  expect((await page.locator("body").ariaSnapshot()).match(/Showing \d+\sof \d+/g)).toHaveLength(1);
  await context.setOffline(false);
});

test("offline, “See all” and the Courses tab show the courses their link names, never the choice made before", async ({
  page,
  context,
}) => {
  // A new document (the browser's error page, offline) has a new time origin.
  const documentTimeOrigin = () => page.evaluate(() => performance.timeOrigin);
  const show = page.getByRole("group", { name: "Show" });
  const showing = (shown: number, count: number) => page.getByRole("status").filter({ hasText: `Showing ${shown} of ${count}` });
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  await tab(page, "Courses").click();
  await expect(show.getByRole("radio", { name: "All 8" })).toBeChecked();
  await tab(page, "Overview").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const signedInDocument = await documentTimeOrigin();

  // Offline, the router on Overview: a choice made on Courses (opened offline) is not carried to the next Courses link.
  await context.setOffline(true);
  await expect(page.getByRole("status").filter({ hasText: "You're offline" })).toBeVisible();
  await tab(page, "Courses").click();
  // Typed a key at a time: the page stays (and its field keeps the focus) while its URL follows.
  await page.getByLabel("Find a course").pressSequentially("photo");
  await expect(page.getByLabel("Find a course")).toHaveValue("photo");
  await expect(show.getByRole("radio", { name: "All 1" })).toBeChecked();
  await show.getByRole("radio", { name: "Ended 1" }).check();
  await expect(show.getByRole("radio", { name: "Ended 1" })).toBeChecked();
  await expect(showing(1, 1)).toBeVisible();
  await expect(page).not.toHaveURL(/show=|q=/);
  await tab(page, "Overview").click();
  await page.getByRole("link", { name: "See it on the Courses page" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
  await expect(show.getByRole("radio", { name: "Ending soon 1" })).toBeChecked();
  await expect(page.getByLabel("Sort by")).toHaveValue("expiry");
  await expect(page.getByLabel("Find a course")).toHaveValue("");
  await expect(page.getByRole("heading", { name: "Watercolor Foundations" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Product Photography at Home" })).toHaveCount(0);
  await tab(page, "Courses").click();
  await expect(show.getByRole("radio", { name: "All 8" })).toBeChecked();
  await expect(showing(8, 8)).toBeVisible();

  // Back online, the router opens the Courses page on screen, with all courses.
  await context.setOffline(false);
  await expect(page).toHaveURL(/\/courses$/);
  await expect(page.getByText(/^Offline: showing/)).toHaveCount(0);
  await expect(show.getByRole("radio", { name: "All 8" })).toBeChecked();

  // Offline, the router on Courses with Ended chosen: "See all" and the Courses tab change the URL, and the page follows it.
  await show.getByRole("radio", { name: "Ended 1" }).check();
  await expect(page).toHaveURL(/\/courses\?show=ended$/);
  await context.setOffline(true);
  await expect(page.getByRole("status").filter({ hasText: "You're offline" })).toBeVisible();
  await tab(page, "Overview").click();
  await page.getByRole("link", { name: "See it on the Courses page" }).click();
  await expect(page).toHaveURL(/\/courses\?show=ending-soon&sort=expiry$/);
  await expect(show.getByRole("radio", { name: "Ending soon 1" })).toBeChecked();
  await expect(page.getByLabel("Sort by")).toHaveValue("expiry");
  await expect(showing(1, 1)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Watercolor Foundations" })).toBeVisible();
  await expect(tab(page, "Courses")).toHaveAttribute("aria-current", "page");
  await tab(page, "Courses").click();
  await expect(page).toHaveURL(/\/courses$/);
  await expect(show.getByRole("radio", { name: "All 8" })).toBeChecked();
  await expect(showing(8, 8)).toBeVisible();
  // Back keeps the URL the one truth: Ending soon again.
  await page.goBack();
  await expect(page).toHaveURL(/\/courses\?show=ending-soon&sort=expiry$/);
  await expect(show.getByRole("radio", { name: "Ending soon 1" })).toBeChecked();

  // Never the browser's error page: the document was never replaced.
  expect(await documentTimeOrigin()).toBe(signedInDocument);
  await context.setOffline(false);
});

test("offline, Sign out and Revoke access say so at once, stay on Settings, and do nothing when the connection returns", async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "maya@example.com", { from: "/settings" });
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const signOut = page.getByRole("main").getByRole("button", { name: "Sign out", exact: true });
  const revoke = page.getByRole("main").getByRole("button", { name: "Revoke access" });
  await expect(signOut).toBeEnabled();

  await context.setOffline(true);
  await signOut.click();
  await expect(
    page.getByRole("alert").filter({ hasText: "You could not be signed out. The dashboard could not be reached." }),
  ).toBeVisible();
  await expect(signOut).toBeEnabled();
  await revoke.click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Access could not be revoked. The dashboard could not be reached." }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);
  // The page is interactive: no "Continuing as soon as the page has loaded…" left open as if the press were still to be acted on.
  await expect(page.getByRole("status").filter({ hasText: "Continuing as soon as the page has loaded…" })).toBeHidden();

  await context.setOffline(false);
  // Nothing held back goes out now: still signed in, still on Settings.
  await page.waitForTimeout(1_000);
  await expect(page).toHaveURL(/\/settings$/);
  expect((await page.request.get(`${APP_URL}/api/session`)).status()).toBe(200);
});
