import { expect, test, type BrowserContext, type Page } from "./test";

import { getAccountData } from "../../sandbox/data/account";
import { APP_URL, expectNoSeriousAxeViolations, postSandboxControl, resetSandbox, signIn, SITE_URL } from "./support";

/**
 * What a student wants first (issue 24), as kai (130 courses), maya (a few of everything) and ben
 * (nothing yet), at phone and desktop width, in English and 繁體中文.
 */
const WIDTHS = [
  { label: "phone", viewport: { width: 390, height: 844 } },
  { label: "desktop", viewport: { width: 1280, height: 900 } },
] as const;

const TEXT = {
  en: {
    findCourse: "Find a course",
    showing: (shown: number, count: number) => `Showing ${shown} of ${count}`,
    showMore: (count: number, left: number) => `Show ${count} more (${left} left)`,
    continueWatching: "Continue watching",
    endingSoon: "Access ending soon",
    upcomingEvents: "Upcoming events",
    resumeAt: /^Resume at \d+:\d\d/,
    settings: "Settings",
    signOut: "Sign out",
    siteSignedOut: "You are also signed out of Demo Academy (sandbox).",
    siteStillSignedIn: "You are still signed in at Demo Academy (sandbox).",
    openSite: "Open Demo Academy (sandbox)",
    browseCourses: "Browse courses on Demo Academy (sandbox)",
    seeEvents: "See upcoming events",
    coursesTitle: "Courses",
    ordersTitle: "Orders",
    eventsTitle: "Events",
    seeAll: (count: number) => (count === 1 ? "See it on the Courses page" : `See all ${count} courses`),
  },
  "zh-TW": {
    findCourse: "尋找課程",
    showing: (shown: number, count: number) => `顯示 ${count} 門中的 ${shown} 門`,
    showMore: (count: number, left: number) => `再顯示 ${count} 門（還剩 ${left} 門）`,
    continueWatching: "繼續觀看",
    endingSoon: "即將到期的課程",
    upcomingEvents: "即將舉行的活動",
    resumeAt: /^從 [\d:]+ 繼續/,
    settings: "設定",
    signOut: "登出",
    siteSignedOut: "你在「Demo Academy (sandbox)」也已登出。",
    siteStillSignedIn: "你在「Demo Academy (sandbox)」仍保持登入。",
    openSite: "開啟「Demo Academy (sandbox)」",
    browseCourses: "在「Demo Academy (sandbox)」瀏覽課程",
    seeEvents: "查看近期活動",
    coursesTitle: "課程",
    ordersTitle: "訂單",
    eventsTitle: "活動",
    seeAll: (count: number) => (count === 1 ? "在「課程」頁查看" : `查看全部 ${count} 門課程`),
  },
} as const;

type Language = keyof typeof TEXT;
const LANGUAGES: Language[] = ["en", "zh-TW"];

/** The sandbox's own names (course titles, the site's name, people) that may stay as written in a zh-TW page. */
const PROPER_NAMES =
  /Demo Academy \(sandbox\)|Demo Academy|Maya Chen|Kai Lin|Ben Okafor|[a-z0-9.]+@example\.com|MCP|GMT[+−-]\d+|DA\d{8}[A-Z0-9]{4}/g;

/** The member's language choice (the cookie Settings' language switch writes), then the page again in it. */
async function chooseLanguage(page: Page, context: BrowserContext, language: Language): Promise<void> {
  // Signing in ends with the site's redirect back to the dashboard (another site, another renderer): reload once it has loaded.
  await page.waitForURL((url) => url.href.startsWith(APP_URL));
  await context.addCookies([{ name: "locale", value: language, url: APP_URL }]);
  await page.reload();
}

/**
 * Fails on any English word in a zh-TW page's text or title (what the site itself wrote aside), and on any
 * raw IANA zone id anywhere.
 */
async function expectNoEnglishAndNoZoneIds(page: Page, language: Language, courseNames: readonly string[] = []): Promise<void> {
  const text = await page.evaluate(() => `${document.title}\n${document.body.innerText}`);
  expect(text).not.toMatch(/\b(?:Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)\/[A-Z][A-Za-z_]+/);
  if (language !== "zh-TW") return;
  let rest = text;
  for (const name of [...courseNames].sort((a, b) => b.length - a.length)) rest = rest.split(name).join(" ");
  rest = rest.replace(PROPER_NAMES, " ");
  expect(rest.match(/[A-Za-z]{3,}(?:\s+[A-Za-z]{2,})*/g) ?? []).toEqual([]);
}

/** What the site itself wrote for a member (course names, event titles and places, order items): shown as the site wrote it. */
function courseNamesOf(email: string): string[] {
  const data = getAccountData(email, Date.now());
  return [
    ...data.enrollments.flatMap((enrollment) => [enrollment.name, enrollment.lastWatchedLecture?.title ?? ""]),
    ...data.eventRegistrations.flatMap((registration) => [registration.event.title, registration.event.location ?? ""]),
    ...data.orders.flatMap((order) => order.lineItems.map((item) => item.name)),
  ].filter(Boolean);
}

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

for (const { label, viewport } of WIDTHS) {
  for (const language of LANGUAGES) {
    const t = TEXT[language];

    test(`kai finds a course among 130 (${label}, ${language})`, async ({ page, context }) => {
      await page.setViewportSize(viewport);
      await signIn(page, "kai@example.com", { from: "/courses" });
      await chooseLanguage(page, context, language);
      await expect(page).toHaveTitle(new RegExp(`^${t.coursesTitle} · `));

      // Ended courses go last by default: the first cards all have access.
      const status = page.getByRole("status").filter({ hasText: t.showing(24, 130) });
      await expect(status).toBeVisible();
      const cards = page.getByRole("article");
      await expect(cards).toHaveCount(24);
      const data = getAccountData("kai@example.com", Date.now());
      const ended = new Set(
        data.enrollments.filter((e) => e.expireDate !== null && e.expireDate.getTime() < Date.now()).map((e) => e.name),
      );
      const firstNames = await cards.getByRole("heading").allInnerTexts();
      expect(firstNames.filter((name) => ended.has(name))).toEqual([]);

      // Show more says how many it adds and how many are left, then moves focus to the first new course.
      const more = page.getByRole("button", { name: t.showMore(24, 106) });
      await more.click();
      await expect(page.getByRole("status").filter({ hasText: t.showing(48, 130) })).toBeVisible();
      await expect(cards).toHaveCount(48);
      await expect(page.locator("li:focus")).toContainText(await cards.nth(24).getByRole("heading").innerText());
      await expect(page.getByRole("button", { name: t.showMore(24, 82) })).toBeVisible();

      // Search: case-insensitive, kept in the URL, combined with Show and Sort; ended courses still last.
      await page.getByLabel(t.findCourse).fill("japanese");
      await expect(page).toHaveURL(/[?&]q=japanese(&|$)/);
      await expect(page.getByRole("status").filter({ hasText: t.showing(7, 7) })).toBeVisible();
      const found = await cards.getByRole("heading").allInnerTexts();
      expect(found).toHaveLength(7);
      for (const name of found) expect(name).toMatch(/Japanese/);
      expect(found.at(-1)).toBe("Hands-on Lab: Japanese Grammar");
      await expectNoSeriousAxeViolations(page);
      await expectNoEnglishAndNoZoneIds(page, language, courseNamesOf("kai@example.com"));

      // Reload keeps the search.
      await page.reload();
      await expect(page.getByLabel(t.findCourse)).toHaveValue("japanese");
      await expect(page.getByRole("status").filter({ hasText: t.showing(7, 7) })).toBeVisible();
      if (language === "en") await page.screenshot({ path: `artifacts/screenshots/courses-search-${label}.png` });
    });

    test(`maya: the Overview puts the urgent first; header Sign out ends the site's session too (${label}, ${language})`, async ({
      page,
      context,
    }) => {
      await page.setViewportSize(viewport);
      await signIn(page, "maya@example.com");
      await chooseLanguage(page, context, language);

      // Overview order on every width: Continue watching, Access ending soon, Upcoming events.
      const headings = await page.getByRole("heading", { level: 2 }).allInnerTexts();
      expect(headings.slice(0, 3)).toEqual([t.continueWatching, t.endingSoon, t.upcomingEvents]);
      const continueSection = page.getByRole("region", { name: t.continueWatching });
      await expect(continueSection.getByRole("article")).toHaveCount(3);
      await expect(continueSection.getByRole("article").first().getByRole("heading")).toHaveText("Watercolor Foundations");
      await expect(
        continueSection
          .getByRole("article")
          .first()
          .getByText(language === "en" ? /Access ends in 3\u00a0days/ : /3\u00a0天後到期/),
      ).toBeVisible();
      await expect(continueSection.getByRole("link", { name: t.resumeAt })).toHaveCount(3);
      const endingSection = page.getByRole("region", { name: t.endingSoon });
      await expect(endingSection.getByRole("link", { name: t.resumeAt })).toHaveCount(1);
      await expect(endingSection.getByRole("link", { name: t.seeAll(1) })).toHaveAttribute("href", "/courses?show=ending-soon&sort=expiry");
      await expectNoSeriousAxeViolations(page);
      await expectNoEnglishAndNoZoneIds(page, language, courseNamesOf("maya@example.com"));
      if (language === "en") await page.screenshot({ path: `artifacts/screenshots/overview-urgent-${label}.png`, fullPage: true });

      // The site knows maya before she signs out.
      const site = await context.newPage();
      await site.goto(SITE_URL);
      await expect(site.getByText("You are signed in to the sandbox as")).toBeVisible();

      await page.getByRole("button", { name: "Maya Chen" }).click();
      await expect(page.getByRole("link", { name: t.settings, exact: true }).last()).toBeVisible();
      await page.getByRole("button", { name: t.signOut, exact: true }).click();
      await expect(page).toHaveURL(/\/signed-out\?state=/);
      await expect(page.getByText(t.siteSignedOut)).toBeVisible();
      // The language is kept across Sign out (Clear-Site-Data wipes cookies; the preference is written back).
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      await expectNoSeriousAxeViolations(page);
      await expectNoEnglishAndNoZoneIds(page, language);
      if (language === "en") await page.screenshot({ path: `artifacts/screenshots/signed-out-site-ended-${label}.png` });

      // The site session is over: the site asks who she is again.
      await site.reload();
      await expect(site.getByText("You are signed in to the sandbox as")).toHaveCount(0);
      await site.close();
    });

    test(`without RP-initiated logout the signed-out page says she is still signed in at the site (${label}, ${language})`, async ({
      page,
      context,
    }) => {
      await page.setViewportSize(viewport);
      await postSandboxControl(page, "/__sandbox/knobs", { endSession: false });
      await signIn(page, "maya@example.com");
      await chooseLanguage(page, context, language);
      await page.getByRole("button", { name: "Maya Chen" }).click();
      await page.getByRole("button", { name: t.signOut, exact: true }).click();
      await expect(page).toHaveURL(/\/signed-out\?reason=signed_out$/);
      await expect(page.getByText(t.siteStillSignedIn)).toBeVisible();
      await expect(page.getByRole("link", { name: t.openSite })).toHaveAttribute("href", SITE_URL);
      await expect(page.locator("html")).toHaveAttribute("lang", language);
      await expectNoSeriousAxeViolations(page);
      await expectNoEnglishAndNoZoneIds(page, language);
      if (language === "en") await page.screenshot({ path: `artifacts/screenshots/signed-out-site-open-${label}.png` });
      const site = await context.newPage();
      await site.goto(SITE_URL);
      await expect(site.getByText("You are signed in to the sandbox as")).toBeVisible();
      await site.close();
    });

    test(`ben's empty pages lead to the site (${label}, ${language})`, async ({ page, context }) => {
      await page.setViewportSize(viewport);
      await signIn(page, "ben@example.com", { from: "/courses" });
      await chooseLanguage(page, context, language);
      const checks = [
        { path: "/courses", title: t.coursesTitle, link: t.browseCourses, href: `${SITE_URL}/courses` },
        { path: "/orders", title: t.ordersTitle, link: t.browseCourses, href: `${SITE_URL}/courses` },
        { path: "/events", title: t.eventsTitle, link: t.seeEvents, href: `${SITE_URL}/events` },
      ];
      for (const check of checks) {
        await page.goto(check.path);
        await expect(page).toHaveTitle(new RegExp(`^${check.title} · `));
        await expect(page.getByRole("link", { name: check.link })).toHaveAttribute("href", check.href);
        // No time-zone note above an empty list.
        await expect(page.getByText(language === "en" ? /Times are shown in/ : /時間以/)).toHaveCount(0);
        await expectNoSeriousAxeViolations(page);
        await expectNoEnglishAndNoZoneIds(page, language);
        if (language === "en") await page.screenshot({ path: `artifacts/screenshots/empty-${check.path.slice(1)}-${label}.png` });
      }
      const catalog = await context.newPage();
      await catalog.goto(`${SITE_URL}/courses`);
      await expect(catalog.getByRole("heading", { name: "Courses at Demo Academy" })).toBeVisible();
      await catalog.close();
    });
  }
}
