import { readFile } from "node:fs/promises";

import { expect, test } from "@playwright/test";

import { completeSiteSignIn, expectNoSeriousAxeViolations, resetSandbox, screenshotPage, signIn, SITE_URL } from "./support";

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

test("a student signs in, uses every page, and revokes access", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "signed-out");

  await signIn(page, "maya@example.com");

  // Overview
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  for (const name of ["Overview", "Courses", "Orders", "Events", "Settings"]) {
    await expect(page.getByRole("navigation").getByRole("link", { name, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "Continue watching" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "overview");

  // Courses: access states in words, Resume links pointing into the site, none on ended courses.
  await page.getByRole("navigation").getByRole("link", { name: "Courses", exact: true }).click();
  await expect(page).toHaveURL(/\/courses$/);
  await expect(page.getByText("Lifetime access").first()).toBeVisible();
  await expect(page.getByText(/Access ends in 3 days/)).toBeVisible();
  await expect(page.getByText(/Access ended on/)).toBeVisible();
  const resume = page.getByRole("link", { name: /^Resume at 1:02:05/ });
  await expect(resume).toHaveAttribute("href", new RegExp(`^${SITE_URL}/courses/[\\w-]+/lectures/[\\w-]+\\?t=3725$`));
  const endedCard = page.getByRole("article").filter({ hasText: /Access ended on/ });
  await expect(endedCard.getByRole("link", { name: /^Resume/ })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "courses");

  // The Resume link lands on the lecture in the site.
  const href = await resume.getAttribute("href");
  const lecture = await page.request.get(href!);
  expect(lecture.ok()).toBe(true);
  expect(await lecture.text()).toContain("1:02:05");

  // Orders
  await page.getByRole("navigation").getByRole("link", { name: "Orders", exact: true }).click();
  await expect(page.getByText(/Refunded/).first()).toBeVisible();
  await expect(page.getByText(/NT\$/).first()).toBeVisible();
  await expect(page.getByText(/US\$|\$\d/).first()).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "orders");

  // Events: an .ics download that is a valid calendar.
  await page.getByRole("navigation").getByRole("link", { name: "Events", exact: true }).click();
  await expect(page.getByText(/Cancelled/).first()).toBeVisible();
  const downloadPromise = page.waitForEvent("download");
  await page.getByRole("button", { name: /Add to calendar/ }).first().click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/\.ics$/);
  const ics = await readFile(await download.path(), "utf8");
  expect(ics).toContain("BEGIN:VCALENDAR");
  expect(ics).toContain("BEGIN:VEVENT");
  expect(ics).toContain("END:VCALENDAR");
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "events");

  // Settings, then revoke with a confirmation step.
  await page.getByRole("navigation").getByRole("link", { name: "Settings", exact: true }).click();
  await expect(page.getByText("maya@example.com")).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "settings");
  await page.getByRole("button", { name: "Revoke access" }).click();
  await page.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page).toHaveURL(/\/signed-out\?reason=revoked/);
  await expect(page.getByText(/no longer grants this app access/)).toBeVisible();

  // The session is gone and the site refuses the old grant.
  const session = await page.request.get("/api/session");
  expect(session.status()).toBe(401);
  const revocations = (await (await page.request.get(`${SITE_URL}/__sandbox/requests`)).json()) as { endpoint: string; status: number }[];
  expect(revocations.filter((entry) => entry.endpoint === "revoke" && entry.status === 200).length).toBeGreaterThanOrEqual(1);
});

test("a student with 130 enrollments pages to the last course", async ({ page }) => {
  await signIn(page, "kai@example.com", { from: "/courses" });
  await expect(page).toHaveURL(/\/courses$/);
  const cards = page.getByRole("article");
  await expect(cards.first()).toBeVisible();
  await expect(page.getByText("130 courses", { exact: true })).toBeVisible();
  const more = page.getByRole("button", { name: /Show more/ });
  for (let round = 0; round < 10 && (await more.isVisible()); round += 1) {
    const before = await cards.count();
    await more.click();
    await expect.poll(() => cards.count()).toBeGreaterThan(before);
  }
  await expect(cards).toHaveCount(130);
  await expect(more).toHaveCount(0);
});

test("an expired session sends the member to sign in and back to the same page", async ({ page }) => {
  await signIn(page, "maya@example.com", { from: "/orders" });
  await expect(page).toHaveURL(/\/orders$/);
  // A month later at the site: the access token and the refresh token have both expired.
  await page.request.post(`${SITE_URL}/__sandbox/knobs`, { data: { clockOffsetMs: 31 * 24 * 60 * 60 * 1000 } });
  await page.goto("/events");
  await expect(page).toHaveURL(new RegExp(`^${SITE_URL}/oauth/authorize`));
  // Back to the site's present, so that its new id_token is not dated in our future.
  await page.request.post(`${SITE_URL}/__sandbox/knobs`, { data: { clockOffsetMs: 0 } });
  await completeSiteSignIn(page, "maya@example.com");
  await expect(page).toHaveURL(/\/events$/);
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
});

test("each page's first HTML already holds its data, and a page whose query fails leaves the others working", async ({ page }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const firstHtml = await (await page.request.get("/courses")).text();
  expect(firstHtml).toContain("Watercolor Foundations");
  expect(firstHtml).not.toContain("Loading…");

  // A site whose Account API lacks `orders`: the Orders page says so, with Retry; Courses still work.
  await page.request.post(`${SITE_URL}/__sandbox/knobs`, { data: { graphqlMissingFields: ["orders"] } });
  await page.goto("/orders");
  const failure = page.getByRole("alert").filter({ hasText: "Your orders could not be loaded." });
  await expect(failure).toBeVisible();
  await page.getByRole("navigation").getByRole("link", { name: "Courses", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Watercolor Foundations" })).toBeVisible();
  await page.request.post(`${SITE_URL}/__sandbox/knobs`, { data: { graphqlMissingFields: [] } });
  await page.goto("/orders");
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
  await expect(page.getByText(/NT\$/).first()).toBeVisible();
});
