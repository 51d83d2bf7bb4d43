import { readFile } from "node:fs/promises";

import { expect, test, type Download, type Page } from "./test";

import { canRemindBeforeAccessEnds } from "../../lib/format/access";
import { accessReminderTiming } from "../../lib/format/access-reminder";
import { startOfMinute } from "../../lib/i18n/clock";
import { getAccountData, type EnrollmentData } from "../../sandbox/data/account";
import {
  endsWithin30Days,
  expectNoSeriousAxeViolations,
  gotoWithScriptsHeld,
  hydrated,
  lastResumableOf72,
  postSandboxControl,
  resetSandbox,
  screenshotPage,
  signIn,
  SITE_URL,
  SITE_URL_AS_LOCALHOST,
} from "./support";

const DAY_MS = 86_400_000;

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

/** The sandbox's own data for a member, as its Account API serves it right now. */
function enrollmentsOf(email: string): { enrollment: EnrollmentData; index: number }[] {
  return getAccountData(email, Date.now()).enrollments.map((enrollment, index) => ({ enrollment, index }));
}

interface IcsComponent {
  name: string;
  properties: { name: string; params: string; value: string }[];
  children: IcsComponent[];
}

/**
 * Parses iCalendar text (RFC 5545 section 3.1: CRLF lines, folded lines unfolded, `NAME;PARAMS:VALUE`) into
 * its nested components, throwing on anything malformed: a bare LF, a line without a colon, BEGIN/END that
 * do not nest, text after the calendar.
 */
function parseIcs(text: string): IcsComponent {
  if (/[^\r]\n/.test(text)) throw new Error("lines must end in CRLF");
  const lines = text.replace(/\r\n[ \t]/g, "").split("\r\n");
  if (lines.at(-1) === "") lines.pop();
  const root: IcsComponent = { name: "", properties: [], children: [] };
  const stack: IcsComponent[] = [root];
  for (const line of lines) {
    const match = /^([A-Za-z0-9-]+)((?:;[^:]*)?):(.*)$/.exec(line);
    if (!match) throw new Error(`not a content line: ${line}`);
    const [, name = "", params = "", value = ""] = match;
    const current = stack.at(-1);
    if (!current) throw new Error(`content after the calendar ended: ${line}`);
    if (name === "BEGIN") {
      const child: IcsComponent = { name: value, properties: [], children: [] };
      current.children.push(child);
      stack.push(child);
    } else if (name === "END") {
      if (current.name !== value) throw new Error(`END:${value} closes ${current.name}`);
      stack.pop();
      if (stack.length === 1) stack.pop();
    } else current.properties.push({ name, params, value });
  }
  if (stack.length !== 0 || root.children.length !== 1 || root.children[0]?.name !== "VCALENDAR")
    throw new Error("not exactly one complete VCALENDAR");
  return root.children[0];
}

function property(component: IcsComponent, name: string): string | undefined {
  return component.properties.find((entry) => entry.name === name)?.value;
}

/** The one VEVENT of a downloaded .ics, checked against RFC 5545's required properties. */
async function downloadedEvent(download: Download): Promise<IcsComponent> {
  expect(download.suggestedFilename()).toMatch(/^[a-z0-9-]+\.ics$/);
  const calendar = parseIcs(await readFile(await download.path(), "utf8"));
  expect(property(calendar, "VERSION")).toBe("2.0");
  expect(property(calendar, "PRODID")).toBeTruthy();
  const events = calendar.children.filter((child) => child.name === "VEVENT");
  expect(events).toHaveLength(1);
  const [event] = events;
  if (!event) throw new Error("no VEVENT");
  for (const required of ["UID", "DTSTAMP", "DTSTART", "SUMMARY"]) expect(property(event, required), required).toBeTruthy();
  return event;
}

/** `YYYYMMDD` of the day before `instant`, in Taipei (the browser's zone in these tests). */
function dayBeforeInTaipei(instant: Date): string {
  const taipei = new Date(instant.getTime() + 8 * 3_600_000 - DAY_MS);
  return taipei.toISOString().slice(0, 10).replace(/-/g, "");
}

async function showAllCards(page: Page): Promise<void> {
  const more = page.getByRole("button", { name: /^Show (\d+\s)?more/ });
  const cards = page.getByRole("article");
  for (let round = 0; round < 20 && (await more.isVisible()); round += 1) {
    const before = await cards.count();
    await more.click();
    await expect.poll(() => cards.count()).toBeGreaterThan(before);
  }
}

test("a never-started course offers Start course, an ended one Renew access, and the reminder is a valid calendar file", async ({
  page,
}) => {
  const maya = enrollmentsOf("maya@example.com").map(({ enrollment }) => enrollment);
  const now = Date.now();
  const notStarted = maya.find(
    (enrollment) => !enrollment.lastWatchedLecture && (enrollment.expireDate === null || enrollment.expireDate.getTime() > now),
  );
  const ended = maya.find((enrollment) => enrollment.expireDate !== null && enrollment.expireDate.getTime() <= now);
  const endingSoon = maya.find((enrollment) => endsWithin30Days(enrollment, now));
  if (!notStarted || !ended || !endingSoon) throw new Error("the demo member lacks a not-started, an ended or an ending-soon course");
  expect(notStarted.name).toBe("Sourdough Baking Masterclass");

  await signIn(page, "maya@example.com", { from: "/courses" });
  await expect(page).toHaveURL(/\/courses$/);

  const startCard = page.getByRole("article").filter({ has: page.getByRole("heading", { name: notStarted.name }) });
  const start = startCard.getByRole("link", { name: /^Start course/ });
  await expect(start).toHaveAttribute("href", `${SITE_URL}/courses/${notStarted.slug}`);
  await expect(start).toHaveAttribute("target", "_top");
  await expect(startCard.getByRole("link", { name: /^Resume/ })).toHaveCount(0);

  const endedCard = page.getByRole("article").filter({ has: page.getByRole("heading", { name: ended.name }) });
  const renew = endedCard.getByRole("link", { name: /^Renew access/ });
  await expect(renew).toHaveAttribute("href", `${SITE_URL}/courses/${ended.slug}`);
  await expect(renew).toHaveAttribute("target", "_top");
  await expect(endedCard.getByRole("link", { name: /^(Resume|Start course)/ })).toHaveCount(0);
  await expect(endedCard.getByRole("button", { name: /^Add a reminder/ })).toHaveCount(0);

  // Both land on the course's page on the site, where it is sold (again).
  for (const link of [start, renew]) {
    const landing = await page.request.get((await link.getAttribute("href"))!);
    expect(landing.ok()).toBe(true);
    expect(await landing.text()).toContain("Get access");
  }

  // "Add a reminder": an all-day event the day before access ends, with the course link.
  const soonCard = page.getByRole("article").filter({ has: page.getByRole("heading", { name: endingSoon.name }) });
  const downloadPromise = page.waitForEvent("download");
  await soonCard.getByRole("button", { name: `Add a reminder – ${endingSoon.name}` }).click();
  const event = await downloadedEvent(await downloadPromise);
  expect(event.properties.find((entry) => entry.name === "DTSTART")).toMatchObject({
    params: ";VALUE=DATE",
    value: dayBeforeInTaipei(endingSoon.expireDate!),
  });
  expect(property(event, "URL")).toBe(`${SITE_URL}/courses/${endingSoon.slug}`);
  expect(property(event, "SUMMARY")).toContain(endingSoon.name);

  await expectNoSeriousAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  // The sticky header would cover part of a card scrolled to the top.
  const unstickHeader = "header.sticky { position: static !important; }";
  await startCard.screenshot({ path: "artifacts/screenshots/course-not-started-desktop.png", style: unstickHeader });
  await endedCard.screenshot({ path: "artifacts/screenshots/course-ended-desktop.png", style: unstickHeader });

  // Overview's "Access ending soon" offers the same reminder.
  await page.getByRole("navigation").getByRole("link", { name: "Overview", exact: true }).click();
  const section = page.getByRole("region", { name: "Access ending soon" });
  const overviewDownload = page.waitForEvent("download");
  await section.getByRole("button", { name: `Add a reminder – ${endingSoon.name}` }).click();
  expect(property(await downloadedEvent(await overviewDownload), "URL")).toBe(`${SITE_URL}/courses/${endingSoon.slug}`);
});

test("among 130 courses, Ending soon shows exactly those ending within 30 days, and the URL keeps the choice", async ({ page }) => {
  await signIn(page, "kai@example.com", { from: "/courses" });
  await expect(page).toHaveURL(/\/courses$/);
  const all = enrollmentsOf("kai@example.com");
  const now = Date.now();
  const expected = all.filter(({ enrollment }) => endsWithin30Days(enrollment, now));
  // The expectation reaches past the first page of 50 enrollments the site serves.
  expect(expected.some(({ index }) => index >= 50)).toBe(true);

  const show = page.getByRole("group", { name: "Show" });
  for (const name of ["All", "In progress", "Not started", "Ending soon", "Ended", "Lifetime"]) {
    await expect(show.getByRole("radio", { name: new RegExp(`^${name} \\d+$`) })).toHaveCount(1);
  }
  await expect(show.getByRole("radio", { name: `All ${all.length}` })).toBeChecked();
  const endingSoon = show.getByRole("radio", { name: `Ending soon ${expected.length}` });
  await endingSoon.check();
  await expect(page).toHaveURL(/\/courses\?show=ending-soon$/);
  await expect(
    page.getByRole("status").filter({ hasText: `Showing ${Math.min(24, expected.length)} of ${expected.length}` }),
  ).toBeVisible();
  await showAllCards(page);
  const headings = page.getByRole("article").getByRole("heading");
  await expect(headings).toHaveCount(expected.length);
  expect((await headings.allTextContents()).sort()).toEqual(expected.map(({ enrollment }) => enrollment.name).sort());
  // A reminder while one can still come in time, in Taipei (the day before; for access ending tomorrow, this
  // evening or tomorrow morning): kai's courses ending tomorrow have one too.
  const remindable = expected.filter(({ enrollment }) =>
    canRemindBeforeAccessEnds({ kind: "until", expiresAt: enrollment.expireDate!.toISOString() }, new Date(now), "Asia/Taipei"),
  );
  expect(remindable.some(({ enrollment }) => enrollment.expireDate!.getTime() - now < 2 * DAY_MS)).toBe(true);
  await expect(page.getByRole("button", { name: /^Add a reminder/ })).toHaveCount(remindable.length);

  // Sorted by expiry: soonest first.
  await page.getByLabel("Sort by").selectOption({ label: "Access ends soonest" });
  await expect(page).toHaveURL(/\/courses\?show=ending-soon&sort=expiry$/);
  const soonest = [...expected].sort(
    (a, b) =>
      a.enrollment.expireDate!.getTime() - b.enrollment.expireDate!.getTime() ||
      a.enrollment.name.localeCompare(b.enrollment.name, "en", { sensitivity: "base", numeric: true }),
  );
  await expect(headings.first()).toHaveText(soonest[0]!.enrollment.name);
  await expectNoSeriousAxeViolations(page);
  await screenshotPage(page, "courses-ending-soon");

  // Reload and back keep the choice.
  await page.reload();
  await expect(show.getByRole("radio", { name: /^Ending soon/ })).toBeChecked();
  await expect(page.getByLabel("Sort by")).toHaveValue("expiry");
  await expect(headings.first()).toHaveText(soonest[0]!.enrollment.name);
  await page.getByRole("navigation").getByRole("link", { name: "Orders", exact: true }).click();
  await expect(page).toHaveURL(/\/orders$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/courses\?show=ending-soon&sort=expiry$/);
  await expect(show.getByRole("radio", { name: /^Ending soon/ })).toBeChecked();
  await expect(
    page.getByRole("status").filter({ hasText: `Showing ${Math.min(24, expected.length)} of ${expected.length}` }),
  ).toBeVisible();

  // The keyboard moves through the choices; the URL follows.
  await show.getByRole("radio", { name: /^Ending soon/ }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(show.getByRole("radio", { name: /^Ended/ })).toBeChecked();
  await expect(page).toHaveURL(/\/courses\?show=ended&sort=expiry$/);
});

test("on a phone, Add a reminder is on the course rows; for access ending tomorrow it reminds tonight or tomorrow morning", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const now = Date.now();
  // The page's clock stands still at the test's "now", so the one right reminder time can be asserted
  // (the page reads the clock to the minute: lib/i18n/clock.ts).
  await page.clock.setFixedTime(now);
  const endingSoon = enrollmentsOf("kai@example.com")
    .map(({ enrollment }) => enrollment)
    .filter((enrollment) => endsWithin30Days(enrollment, now))
    .sort((a, b) => a.expireDate!.getTime() - b.expireDate!.getTime());
  const tomorrow = endingSoon[0];
  const later = endingSoon.find((enrollment) => enrollment.expireDate!.getTime() - now > 7 * DAY_MS);
  if (!tomorrow || !later) throw new Error("kai lacks a course ending tomorrow or one ending in more than a week");
  expect(tomorrow.expireDate!.getTime() - now).toBeLessThan(DAY_MS + 60_000);

  await signIn(page, "kai@example.com", { from: "/courses" });
  await page.goto("/courses?show=ending-soon&sort=expiry");
  await expect(page.getByRole("status").filter({ hasText: /^Showing (\d+)\sof \1$/ })).toBeVisible();
  const rowOf = (name: string) =>
    page
      .getByRole("article")
      .filter({ has: page.getByRole("heading", { name, exact: true }) })
      .first();
  const laterReminder = rowOf(later.name).getByRole("button", { name: `Add a reminder – ${later.name}` });
  await laterReminder.scrollIntoViewIfNeeded();
  await expect(laterReminder).toBeVisible();

  const reminder = rowOf(tomorrow.name).getByRole("button", { name: `Add a reminder – ${tomorrow.name}` });
  await reminder.scrollIntoViewIfNeeded();
  await expect(reminder).toBeVisible();
  const download = page.waitForEvent("download");
  await reminder.click();
  const event = await downloadedEvent(await download);
  // A timed reminder in Taipei: 19:00 tonight, or 09:00 tomorrow once tonight is too near.
  const utc = (instant: Date) => `${instant.toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;
  const timing = accessReminderTiming(tomorrow.expireDate!.toISOString(), { timeZone: "Asia/Taipei", now: new Date(startOfMinute(now)) });
  if (timing?.kind !== "at") throw new Error("a course ending tomorrow has a timed reminder");
  expect(event.properties.find((entry) => entry.name === "DTSTART")?.value).toBe(utc(timing.instant));
  expect(property(event, "URL")).toBe(`${SITE_URL}/courses/${tomorrow.slug}`);
  const alarm = event.children.find((child) => child.name === "VALARM");
  expect(alarm && property(alarm, "TRIGGER")).toBe(property(event, "DTSTART"));
  // Nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("a choice made before the page is interactive (a slow phone) is kept once it is", async ({ page }) => {
  await signIn(page, "kai@example.com", { from: "/courses" });
  await expect(page).toHaveURL(/\/courses$/);
  const all = enrollmentsOf("kai@example.com");
  const now = Date.now();
  const expected = all.filter(({ enrollment }) => endsWithin30Days(enrollment, now) && /\bintermediate\b/i.test(enrollment.name));
  expect(expected.length).toBeGreaterThan(0);

  // The page again, its JavaScript held back until the choice is made: the server's HTML alone.
  const releaseScripts = await gotoWithScriptsHeld(page, "/courses");
  const show = page.getByRole("group", { name: "Show" });
  await show.getByRole("radio", { name: /^Ending soon/ }).check();
  await page.getByLabel("Sort by").selectOption({ label: "Access ends soonest" });
  await page.getByLabel("Find a course").fill("intermediate");
  // Nothing ran yet: the list is still the server's.
  await expect(page.getByRole("status").filter({ hasText: `Showing 24 of ${all.length}` })).toBeVisible();
  expect(new URL(page.url()).search).toBe("");

  releaseScripts();
  await expect(page).toHaveURL(/\/courses\?show=ending-soon&sort=expiry&q=intermediate$/);
  await expect(page.getByRole("status").filter({ hasText: `Showing ${expected.length} of ${expected.length}` })).toBeVisible();
  await expect(show.getByRole("radio", { name: `Ending soon ${expected.length}` })).toBeChecked();
  await expect(page.getByLabel("Sort by")).toHaveValue("expiry");
  await expect(page.getByLabel("Find a course")).toHaveValue("intermediate");
  await expect(page.getByRole("article").getByRole("heading")).toHaveText(
    expected
      .map(({ enrollment }) => enrollment)
      .sort(
        (a, b) =>
          a.expireDate!.getTime() - b.expireDate!.getTime() || a.name.localeCompare(b.name, "en", { sensitivity: "base", numeric: true }),
      )
      .map(({ name }) => name),
  );

  // Words no course's name has: no option under Show can help, so the page says to try other words only.
  await page.getByLabel("Find a course").fill("zzqx");
  await expect(page.getByText("No course has these words in its name. Try other words.")).toBeVisible();
  await expect(page.getByText(/choose another option under Show/)).toHaveCount(0);
});

test("on a phone, Show 24 more pressed before the page is interactive loads the longer list at the first course it adds", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "kai@example.com", { from: "/courses" });
  await expect(page).toHaveURL(/\/courses$/);
  const byName = enrollmentsOf("kai@example.com")
    .map(({ enrollment }) => enrollment.name)
    .sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base", numeric: true }));
  const status = page.getByRole("status").filter({ hasText: /^Showing \d+\sof \d+$/ });
  const cards = page.getByRole("main").getByRole("article");

  // The page's JavaScript held back: the press is the server's HTML alone, a form that asks the server for 48.
  const releaseScripts = await gotoWithScriptsHeld(page, "/courses?sort=name");
  await expect(status).toHaveText(`Showing 24 of ${byName.length}`);
  await page.getByRole("button", { name: `Show 24 more (${byName.length - 24} left)` }).click();
  await expect(page).toHaveURL(/\/courses\?sort=name&shown=48#item-25$/);
  await expect(status).toHaveText(`Showing 48 of ${byName.length}`);
  await expect(cards.getByRole("heading")).toHaveText(byName.slice(0, 48));
  // The browser lands on the first course the press added, below the sticky header.
  await expect(cards.nth(24)).toBeInViewport({ ratio: 1 });
  await expect(cards.nth(0)).not.toBeInViewport();

  // Once the page is interactive, the same button stays on the page: no new document, focus on the first course added.
  releaseScripts();
  const showMore = page.getByRole("button", { name: `Show 24 more (${byName.length - 48} left)` });
  await hydrated(showMore);
  await page.evaluate(() => document.documentElement.setAttribute("data-before-press", ""));
  await showMore.click();
  await expect(status).toHaveText(`Showing 72 of ${byName.length}`);
  await expect(page).toHaveURL(/\/courses\?sort=name&shown=72(#|$)/);
  await expect(page.locator("html[data-before-press]")).toHaveCount(1);
  await expect(page.getByRole("main").getByRole("listitem").nth(48)).toBeFocused();
});

test("past 500 courses, Show more pressed before the page is interactive reads the next load at the first course it adds", async ({
  page,
}) => {
  // An all-access member on a catalog larger than the sandbox's: 610 enrollments, past the 500 of one load.
  await postSandboxControl(page, "/__sandbox/knobs", { extraEnrollments: 480 });
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "kai@example.com", { from: "/courses" });
  const names = [
    ...enrollmentsOf("kai@example.com").map(({ enrollment }) => enrollment.name),
    ...Array.from({ length: 480 }, (_, index) => `Elective ${index + 1}`),
  ];
  const status = page.getByRole("status").filter({ hasText: /^Showing \d+\sof \d+$/ });
  const cards = page.getByRole("main").getByRole("article");

  // Every course of the first load shown, the page's JavaScript held back: Show more is a form for the next load.
  const releaseScripts = await gotoWithScriptsHeld(page, "/courses?sort=name&shown=500");
  await expect(status).toHaveText("Showing 500 of 500");
  await expect(page.getByText(`The counts cover the first 500 of your ${names.length} courses`)).toBeVisible();
  await page.getByRole("button", { name: "Show more", exact: true }).click();
  await expect(page).toHaveURL(/\/courses\?sort=name&shown=524&pages=2#item-501$/);
  await expect(status).toHaveText(`Showing 524 of ${names.length}`);
  await expect(page.getByText(/The counts cover the first/)).toHaveCount(0);
  const byName = [...names].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base", numeric: true }));
  await expect(cards.getByRole("heading")).toHaveText(byName.slice(0, 524));
  // The browser lands on course 501, below the sticky header.
  await expect(cards.nth(500)).toBeInViewport({ ratio: 1 });

  // Once the page is interactive, a reload keeps both loads and the list as long as it was.
  releaseScripts();
  await hydrated(page.getByRole("button", { name: /^Show 24\smore/ }));
  await page.reload();
  await expect(status).toHaveText(`Showing 524 of ${names.length}`);
});

test("on a phone, the keyboard's Search key closes the keyboard and goes to the results", async ({ page }) => {
  await signIn(page, "kai@example.com", { from: "/courses" });
  // A phone's height with its keyboard open.
  await page.setViewportSize({ width: 390, height: 360 });
  const search = page.getByRole("search").getByLabel("Find a course");
  await search.fill("Japanese");
  await expect(page).toHaveURL(/[?&]q=Japanese(&|$)/);
  const results = page.getByRole("status").filter({ hasText: /^Showing 7\sof 7$/ });
  // The compact filters leave the status line at the screen's bottom edge at most; the first result is below it.
  const firstResult = page.getByRole("main").getByRole("article").first();
  await expect(results).not.toBeInViewport({ ratio: 1 });
  await expect(firstResult).not.toBeInViewport();
  await search.press("Enter");
  await expect(search).not.toBeFocused();
  await expect(results).toBeInViewport({ ratio: 1 });
  await expect(firstResult).toBeInViewport();
  await expect(page).toHaveURL(/\/courses\?q=Japanese$/);
});

test("the server renders the chosen courses in the first HTML", async ({ page }) => {
  await signIn(page, "kai@example.com", { from: "/courses" });
  await expect(page).toHaveURL(/\/courses$/);
  const all = enrollmentsOf("kai@example.com");
  const now = Date.now();
  const notStarted = all.filter(
    ({ enrollment }) => !enrollment.lastWatchedLecture && !(enrollment.expireDate && enrollment.expireDate.getTime() <= now),
  );
  const html = await (await page.request.get("/courses?show=not-started&sort=name")).text();
  expect(html).toMatch(/<input(?=[^>]*value="not-started")(?=[^>]*checked="")[^>]*>/);
  expect(html.match(/<input[^>]*checked=""[^>]*>/g)).toHaveLength(1);
  expect(html).toContain(`Showing ${Math.min(24, notStarted.length)}\u00a0of ${notStarted.length}`);
  expect(html).not.toContain("Loading…");
  const firstByName = [...notStarted].sort((a, b) =>
    a.enrollment.name.localeCompare(b.enrollment.name, "en", { sensitivity: "base", numeric: true }),
  )[0]!;
  const firstHeading = /<article[^]*?<h2[^>]*>([^<]+)<\/h2>/.exec(html)?.[1];
  expect(firstHeading?.replace(/&amp;/g, "&")).toBe(firstByName.enrollment.name);
});

test("a cover the site's image host does not serve gives way to the plain cover, failed before the page is interactive or after", async ({
  page,
}) => {
  await signIn(page, "maya@example.com");
  await postSandboxControl(page, "/__sandbox/knobs", { failures: { covers: { mode: "status", status: 404 } } });
  await page.setViewportSize({ width: 1280, height: 900 });
  const main = page.getByRole("main");
  const cards = main.getByRole("article");
  const covers = main.locator("img");

  // The server's HTML, its scripts held back: the covers fail with no one listening for their error.
  const releaseScripts = await gotoWithScriptsHeld(page, "/courses");
  await expect(cards.first()).toBeVisible();
  await expect
    .poll(() => covers.evaluateAll((images) => images.length > 0 && images.every((image) => (image as HTMLImageElement).complete)))
    .toBe(true);
  releaseScripts();
  await hydrated(cards.first().getByRole("link").first());
  await expect(covers).toHaveCount(0);
  const cardCount = await cards.count();
  expect(cardCount).toBeGreaterThan(0);
  for (let index = 0; index < cardCount; index++) {
    const cover = cards.nth(index).locator(":scope > [aria-hidden='true']");
    await expect(cover).toBeVisible();
    expect((await cover.boundingBox())?.height).toBeGreaterThan(100);
  }

  // Covers met after the page is interactive (a tab away and back) fail while React listens.
  await page.getByRole("navigation").getByRole("link", { name: "Orders" }).click();
  await expect(page).toHaveURL(/\/orders$/);
  await page.getByRole("navigation").getByRole("link", { name: "Courses" }).click();
  await expect(cards).toHaveCount(cardCount);
  await expect(covers).toHaveCount(0);

  // Once the host serves them again, a reload shows every course's cover.
  await postSandboxControl(page, "/__sandbox/knobs", { failures: { covers: null } });
  await page.reload();
  await expect(covers).toHaveCount(cardCount);
  await expect.poll(() => covers.evaluateAll((images) => images.every((image) => (image as HTMLImageElement).naturalWidth > 0))).toBe(true);
});

test("covers show from the CDN SITE_IMAGE_ORIGINS lists and from paths on the site; one from an unlisted host is never asked for", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const refused: string[] = [];
    Object.assign(window, { refusedImages: refused });
    document.addEventListener("securitypolicyviolation", (event) => refused.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
  const refusedImages = () => page.evaluate(() => (window as unknown as { refusedImages: string[] }).refusedImages);
  await signIn(page, "maya@example.com");
  await page.setViewportSize({ width: 1280, height: 900 });
  const main = page.getByRole("main");
  const covers = main.locator("img");
  /** Every card shows its cover, loaded from `origin`. */
  const expectCoversFrom = async (origin: string, cardCount: number) => {
    await expect(covers).toHaveCount(cardCount);
    await expect
      .poll(() =>
        covers.evaluateAll(
          (images, from) =>
            images.every(
              (image) => image.getAttribute("src")!.startsWith(`${from}/covers/`) && (image as HTMLImageElement).naturalWidth > 0,
            ),
          origin,
        ),
      )
      .toBe(true);
  };

  // The playwright config lists the sandbox under its other name as the CDN.
  await postSandboxControl(page, "/__sandbox/knobs", { coverOrigin: SITE_URL_AS_LOCALHOST });
  await page.goto("/courses");
  const cardCount = await main.getByRole("article").count();
  expect(cardCount).toBeGreaterThan(0);
  await expectCoversFrom(SITE_URL_AS_LOCALHOST, cardCount);

  // A site that gives its covers as paths on itself: read on the site, not on the dashboard.
  await postSandboxControl(page, "/__sandbox/knobs", { coverOrigin: "", relativeCoverUrls: true });
  await page.reload();
  await expectCoversFrom(SITE_URL, cardCount);
  expect(await refusedImages()).toEqual([]);

  // A host it does not list: the page is not given such a cover (the server logs the host for the operator),
  // so every card shows the plain cover from its first paint, with no image the policy refuses.
  const unlisted = SITE_URL.replace("127.0.0.1", "127.0.0.2");
  await postSandboxControl(page, "/__sandbox/knobs", { coverOrigin: unlisted, relativeCoverUrls: false });
  await page.reload();
  await expect(main.getByRole("article")).toHaveCount(cardCount);
  await expect(covers).toHaveCount(0);
  expect(await refusedImages()).toEqual([]);
  expect(await page.content()).not.toContain(unlisted);
});

test("a quiet banner says when the browser is offline, and goes away on its own", async ({ page, context }) => {
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
  const banner = page.getByRole("status").filter({ hasText: "You're offline" });
  await expect(banner).toHaveCount(0);
  await context.setOffline(true);
  await expect(banner).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await context.setOffline(false);
  await expect(banner).toHaveCount(0);
});

test("on a phone, Back from a lecture far down the list brings back the list as long as it was, the course in view; a reload too", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "kai@example.com", { from: "/courses" });
  const total = enrollmentsOf("kai@example.com").length;
  const status = page.getByRole("status").filter({ hasText: /^Showing \d+\sof \d+$/ });
  await expect(status).toHaveText(`Showing 24 of ${total}`);
  for (const shown of [48, 72]) {
    await page.getByRole("button", { name: /^Show 24\smore/ }).click();
    await expect(status).toHaveText(`Showing ${shown} of ${total}`);
  }

  // The last course with Resume among the 72, far below the first screen.
  const { row: card, sameRow: sameCard } = await lastResumableOf72(page);
  await card.getByRole("link", { name: /^Resume/ }).click();
  await expect(page).toHaveURL(new RegExp(`^${SITE_URL}/courses/[^/]+/lectures/`));

  await page.goBack();
  await expect(status).toHaveText(`Showing 72 of ${total}`);
  await expect(sameCard).toHaveCount(1);
  await expect(sameCard).toBeInViewport();
  // The URL keeps how many are shown, beside the choice.
  await expect(page).toHaveURL(/\/courses\?shown=72$/);

  await page.reload();
  await expect(status).toHaveText(`Showing 72 of ${total}`);
  await expect(sameCard).toBeInViewport();

  // Another choice starts again at the first step, and its URL holds the choice alone.
  await page.getByLabel("Sort by").selectOption({ label: "Name" });
  await expect(page).toHaveURL(/\/courses\?sort=name$/);
  await expect(status).toHaveText(`Showing 24 of ${total}`);
});

test("Back from a lecture finds the course in view where the browser restores no scroll; a link opened in a new tab notes nothing", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "kai@example.com", { from: "/courses" });
  await page.goto("/courses?shown=72");
  const total = enrollmentsOf("kai@example.com").length;
  await expect(page.getByRole("status").filter({ hasText: /^Showing \d+\sof \d+$/ })).toHaveText(`Showing 72 of ${total}`);
  const { row: card, sameRow: sameCard } = await lastResumableOf72(page);
  // A click that opens the lecture in another tab leaves this page as it is: nothing is noted.
  const [lectureTab] = await Promise.all([
    page.context().waitForEvent("page"),
    card.getByRole("link", { name: /^Resume/ }).click({ modifiers: ["ControlOrMeta"] }),
  ]);
  await lectureTab.close();
  expect(await page.evaluate(() => JSON.stringify(window.history.state))).not.toContain("courseLeftFrom");

  // As a browser does that restores no scroll on Back (a phone that discarded the tab, or one that kept
  // an offset from before the last scroll): this history entry's scroll is the page's to restore.
  await page.evaluate(() => (window.history.scrollRestoration = "manual"));
  await card.getByRole("link", { name: /^Resume/ }).click();
  await expect(page).toHaveURL(new RegExp(`^${SITE_URL}/courses/[^/]+/lectures/`));
  await page.goBack();
  await expect(sameCard).toBeInViewport();
  // Used once: the member scrolls on, and a reload keeps where they are (here, where this test put them).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeInViewport();
  await expect(sameCard).not.toBeInViewport();
});
