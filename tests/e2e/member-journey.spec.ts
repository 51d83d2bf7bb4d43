import { readFile } from "node:fs/promises";

import { expect, test } from "./test";

import {
  expectCourses,
  expectEvents,
  expectOrders,
  expectOverview,
  expectSettings,
  openPage,
  revokeAccess,
  showEveryCourse,
  signOutFromHeaderMenu,
  switchLanguageAndBack,
} from "../journeys/member-journey";

import { playwrightDriver } from "./playwright-driver";
import {
  completeSiteSignIn,
  expectNoSeriousAxeViolations,
  gotoWithScriptsHeld,
  isHydrated,
  lineTexts,
  markSiteRequests,
  postSandboxControl,
  resetSandbox,
  screenshotPage,
  signIn,
  SITE_URL,
} from "./support";

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

test("a student signs in, uses every page, and revokes access", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "signed-out");

  await signIn(page, "maya@example.com");
  // The journey's steps are shared with the Firefox suite (tests/journeys/member-journey.ts).
  const driver = playwrightDriver(page);

  await expectOverview(driver, "Maya");
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "overview");

  await openPage(driver, "Courses");
  const href = await expectCourses(driver);
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "courses");

  // The Resume link lands on the lecture in the site.
  const lecture = await page.request.get(href);
  expect(lecture.ok()).toBe(true);
  expect(await lecture.text()).toContain("1:02:05");

  await openPage(driver, "Orders");
  await expectOrders(driver);
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "orders");

  // Events: an .ics download that is a valid calendar.
  await openPage(driver, "Events");
  await expectEvents(driver);
  const downloadPromise = page.waitForEvent("download");
  await page
    .getByRole("button", { name: /Add to calendar/ })
    .first()
    .click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/\.ics$/);
  const ics = await readFile(await download.path(), "utf8");
  expect(ics).toContain("BEGIN:VCALENDAR");
  expect(ics).toContain("BEGIN:VEVENT");
  expect(ics).toContain("END:VCALENDAR");
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "events");

  // Settings: the language switch, then revoke with a confirmation step.
  await openPage(driver, "Settings");
  await expectSettings(driver, "maya@example.com");
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "settings");
  await switchLanguageAndBack(driver);
  // Only this revoke counts (a sign-in past the member's session cap revokes her oldest session at the site).
  const siteRequestsSincePress = await markSiteRequests(page);
  await revokeAccess(driver);

  // The session is gone and the site refuses the old grant.
  const session = await page.request.get("/api/session");
  expect(session.status()).toBe(401);
  const revokes = (await siteRequestsSincePress()).filter((entry) => entry.endpoint === "revoke" && entry.status === 200);
  expect(revokes.length).toBeGreaterThanOrEqual(1);
});

test("a student with 130 enrollments pages to the last course", async ({ page }) => {
  await signIn(page, "kai@example.com", { from: "/courses" });
  await expect(page).toHaveURL(/\/courses$/);
  await showEveryCourse(playwrightDriver(page), 130);
});

test("an expired session says so truthfully, and Sign in leads back to the same page", async ({ page }) => {
  await signIn(page, "maya@example.com", { from: "/orders" });
  await expect(page).toHaveURL(/\/orders$/);
  // A month later at the site: the access token and the refresh token have both expired.
  await postSandboxControl(page, "/__sandbox/knobs", { clockOffsetMs: 31 * 24 * 60 * 60 * 1000 });
  await page.goto("/events");
  // The site refused to renew access: the member is told, and signed out (issue 30).
  await expect(page).toHaveURL(/\/signed-out\?reason=access_withdrawn&returnTo=%2Fevents$/);
  await expect(page.getByRole("status")).toContainText("no longer accepts this app's access");
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`^${SITE_URL}/oauth/authorize`));
  // Back to the site's present, so that its new id_token is not dated in our future.
  await postSandboxControl(page, "/__sandbox/knobs", { clockOffsetMs: 0 });
  await completeSiteSignIn(page, "maya@example.com");
  await expect(page).toHaveURL(/\/events$/);
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
});

test("the signed-out page's Sign in leads back only to a page of the dashboard", async ({ page }) => {
  await page.goto(`/signed-out?reason=access_withdrawn&returnTo=${encodeURIComponent("/orders?page=2")}`);
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute(
    "href",
    `/api/auth/login?returnTo=${encodeURIComponent("/orders?page=2")}`,
  );
  for (const elsewhere of ["//evil.example/x", "https://evil.example/", "/api/auth/logout"]) {
    await page.goto(`/signed-out?reason=access_withdrawn&returnTo=${encodeURIComponent(elsewhere)}`);
    await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/api/auth/login");
  }
});

test("a Sign in tapped before the signed-out page's scripts ran still leads back to the page the member was on", async ({ page }) => {
  // The page is prerendered: until its scripts run, its link has no returnTo, and the sign-in route reads
  // it from the page's address, which the link sends as its Referer.
  const releaseScripts = await gotoWithScriptsHeld(page, `/signed-out?reason=expired&returnTo=${encodeURIComponent("/orders?page=2")}`);
  const signInLink = page.getByRole("link", { name: "Sign in" });
  await expect(signInLink).toHaveAttribute("href", "/api/auth/login");
  const login = page.waitForRequest((request) => request.url().includes("/api/auth/login"));
  const authorize = page.waitForRequest((request) => request.url().startsWith(`${SITE_URL}/oauth/authorize`));
  await signInLink.click();
  expect(await (await login).headerValue("referer")).toMatch(/\/signed-out\?reason=expired&returnTo=%2Forders%3Fpage%3D2$/);
  // The page's address goes to this dashboard only, never on to the site (the link's policy is "same-origin").
  expect(await (await authorize).headerValue("referer")).toBeNull();
  await expect(page).toHaveURL(new RegExp(`^${SITE_URL}/oauth/authorize`));
  releaseScripts();
  await completeSiteSignIn(page, "maya@example.com");
  await expect(page).toHaveURL(/\/orders\?page=2$/);
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
});

test("Revoke access pressed before Settings is interactive says so at once, and opens the confirmation once the scripts have run", async ({
  page,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await signIn(page, "maya@example.com");
  const releaseScripts = await gotoWithScriptsHeld(page, "/settings");
  const revoke = page.getByRole("main").getByRole("button", { name: "Revoke access" });
  // The last button of the page, scrolled to the foot of the screen, just above the tab bar.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await revoke.click();
  expect(await isHydrated(revoke), "the press came before hydration").toBe(false);
  const notice = page.getByRole("status").filter({ hasText: "Continuing as soon as the page has loaded…" });
  // Whole on the screen, and on a phone not over the tab bar: with no room below the button, above it.
  await expect(notice).toBeInViewport({ ratio: 1 });
  const tabBar = (await page.getByRole("navigation", { name: "Main" }).boundingBox())!;
  const noticeBox = (await notice.boundingBox())!;
  expect(noticeBox.y + noticeBox.height).toBeLessThanOrEqual(tabBar.y);
  expect(noticeBox.x).toBeGreaterThanOrEqual(16);
  expect(noticeBox.x + noticeBox.width).toBeLessThanOrEqual(320 - 16);
  releaseScripts();
  await expect(page).toHaveURL(/\/settings\/revoke$/);
  await expect(page.getByRole("button", { name: "Yes, revoke" })).toBeVisible();
  await expect(notice).toBeHidden();
  // Cancel: back on Settings, which is interactive now; a press goes straight to the confirmation.
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(revoke).toBeFocused();
  await revoke.click();
  await expect(page).toHaveURL(/\/settings\/revoke$/);
});

test("Add to calendar pressed before Events is interactive says so at once, and downloads the file once the scripts have run", async ({
  page,
}) => {
  await signIn(page, "maya@example.com");
  const releaseScripts = await gotoWithScriptsHeld(page, "/events");
  const add = page.getByRole("button", { name: /Add to calendar/ }).first();
  await add.click();
  expect(await isHydrated(add), "the press came before hydration").toBe(false);
  const notice = page.getByRole("status").filter({ hasText: "Continuing as soon as the page has loaded…" });
  await expect(notice).toBeVisible();
  // Under the button at the right end of its card, it stays inside the page's column on a wide screen, ending
  // where the button ends: its sentence keeps its width (two lines), not squeezed into the column's last 190 px.
  const column = (await page.getByRole("main").boundingBox())!;
  const shown = (await notice.boundingBox())!;
  const button = (await add.boundingBox())!;
  expect(shown.x + shown.width).toBeLessThanOrEqual(column.x + column.width - 16);
  expect(shown.x).toBeGreaterThanOrEqual(column.x);
  expect(shown.x + shown.width).toBeCloseTo(button.x + button.width, 0);
  expect(shown.y).toBeGreaterThanOrEqual(button.y + button.height);
  expect(await lineTexts(notice)).toHaveLength(2);
  const downloaded = page.waitForEvent("download");
  releaseScripts();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/\.ics$/);
  expect(await readFile(await download.path(), "utf8")).toContain("BEGIN:VEVENT");
  await expect(notice).toBeHidden();
});

test("a member signed in again in another tab is taken back to the dashboard when the signed-out page reloads", async ({
  page,
  context,
}) => {
  await signIn(page, "maya@example.com");
  await signOutFromHeaderMenu(playwrightDriver(page), "Maya Chen");
  const other = await context.newPage();
  await signIn(other, "maya@example.com");
  await expect(other.getByRole("heading", { level: 1 })).toContainText("Hello");
  // The first tab still shows "You are signed out."; reloaded, it would be wrong to say so again.
  await page.reload();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Hello, Maya Chen");
  await page.goto(`/signed-out?reason=expired&returnTo=${encodeURIComponent("/orders")}`);
  await expect(page).toHaveURL(/\/orders$/);
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
});

test("each page's first HTML already holds its data, and a page whose query fails leaves the others working", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const firstHtml = await (await page.request.get("/courses")).text();
  expect(firstHtml).toContain("Watercolor Foundations");
  expect(firstHtml).not.toContain("Loading…");

  // A site whose Account API lacks `orders`: the Orders page says so, with Retry; Courses still work.
  await postSandboxControl(page, "/__sandbox/knobs", { graphqlMissingFields: ["orders"] });
  await page.goto("/orders");
  const failure = page.getByRole("alert").filter({ hasText: "Your orders could not be loaded." });
  await expect(failure).toBeVisible();
  await page.getByRole("navigation").getByRole("link", { name: "Courses", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Watercolor Foundations" })).toBeVisible();
  await postSandboxControl(page, "/__sandbox/knobs", { graphqlMissingFields: [] });
  await page.goto("/orders");
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
  await expect(page.getByText(/NT\$/).first()).toBeVisible();
});
