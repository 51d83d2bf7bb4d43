import { expect, test, type Page } from "./test";

import { getAccountData } from "../../sandbox/data/account";
import { expectNoSeriousAxeViolations, resetSandbox, signIn } from "./support";

/**
 * English dates, times and amounts follow the browser's English (issue 24): Playwright's `locale` sets both
 * navigator.language and Accept-Language, so an en-US browser reads "Nov 24, 2026" and a 12-hour clock, an
 * en-GB one "24 Nov 2026" and a 24-hour clock, on the same pages; the UI language stays English, and the
 * page the server wrote is the page the browser hydrates (no hydration warning).
 */
const REGIONS = {
  "en-US": {
    date: /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/,
    dateTime: /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M \(.+\)$/,
    // Plain spaces around the dash, as Chromium writes them (Node's ICU would write thin ones); between a time
    // and its AM or PM a no-break space (tests/unit/ui/english-formats.test.ts), which `\s` takes too.
    eventTimes: /\d{1,2}:\d\d(\s[AP]M)? – \d{1,2}:\d\d\s[AP]M/,
  },
  "en-GB": {
    date: /^\d{1,2} [A-Z][a-z]{2} \d{4}$/,
    dateTime: /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d \(.+\)$/,
    eventTimes: /\d\d:\d\d–\d\d:\d\d/,
  },
} as const;

/** The browser's zone in these journeys (playwright.config.ts). */
const TIME_ZONE = "Asia/Taipei";

/** A date as the dashboard writes it in `locale` ("Nov 24, 2026", "24 Nov 2026"), for comparing with the page. */
function writtenDate(locale: string, date: Date): string {
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric", timeZone: TIME_ZONE }).format(date);
}

/**
 * The text of the page's HTML as the server writes it for a browser asking for `locale` (before any script
 * runs), each run of spaces as one: a tag counts as a space, and a date kept whole in a span of its own
 * ("Access ended on <span>Nov 25, 2026</span>") reads as the sentence it is.
 */
async function serverText(page: Page, path: string, locale: string): Promise<string> {
  const html = await (await page.request.get(path, { headers: { "accept-language": locale } })).text();
  return html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** Collects what React reports when the HTML and the first client render disagree. */
function watchHydration(page: Page): string[] {
  const reports: string[] = [];
  const isHydrationReport = (text: string) => /hydrat|did(n't| not) match|Minified React error #(418|419|422|423|425)/i.test(text);
  page.on("console", (message) => {
    if ((message.type() === "error" || message.type() === "warning") && isHydrationReport(message.text())) reports.push(message.text());
  });
  page.on("pageerror", (error) => {
    if (isHydrationReport(`${error.message}\n${error.stack ?? ""}`)) reports.push(error.message);
  });
  return reports;
}

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

for (const [locale, written] of Object.entries(REGIONS)) {
  test.describe(`a browser asking for ${locale}`, () => {
    test.use({ locale });

    test(`maya's access dates, order dates, event times and the access-granted time are written as ${locale}`, async ({ page }) => {
      const hydrationReports = watchHydration(page);
      const data = getAccountData("maya@example.com", Date.now());

      await signIn(page, "maya@example.com", { from: "/courses" });
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();

      // An access badge: the ended course's date in the region's order.
      const ended = data.enrollments.find((enrollment) => enrollment.expireDate !== null && enrollment.expireDate.getTime() < Date.now());
      if (!ended?.expireDate) throw new Error("maya has an ended course in the seed");
      const endedOn = writtenDate(locale, ended.expireDate);
      expect(endedOn).toMatch(written.date);
      await expect(page.getByText(`Access ended on ${endedOn}`).filter({ visible: true })).toBeVisible();
      expect(await serverText(page, "/courses", locale)).toContain(`Access ended on ${endedOn}`);
      await expectNoSeriousAxeViolations(page);

      // Orders: the newest paid order's date, and dollars that say their country in either region.
      await page.goto("/orders");
      const newestPaid = data.orders
        .filter((order) => order.paidAt !== null && order.state === "paid")
        .sort((a, b) => b.paidAt!.getTime() - a.paidAt!.getTime())[0];
      if (!newestPaid?.paidAt) throw new Error("maya has a paid order in the seed");
      const paidOn = writtenDate(locale, newestPaid.paidAt);
      expect(paidOn).toMatch(written.date);
      await expect(page.getByText(`Paid ${paidOn}`, { exact: true }).first()).toBeVisible();
      expect(await serverText(page, "/orders", locale)).toContain(`Paid ${paidOn}`);
      await expect(page.getByText(/US\$\d/).first()).toBeVisible();
      await expect(page.getByText(/NT\$\d/).first()).toBeVisible();
      await expect(page.getByText(/(^|[^A-Z])\$\d/)).toHaveCount(0);
      await expectNoSeriousAxeViolations(page);

      // Events: a timed event on the region's clock.
      await page.goto("/events");
      await expect(page.getByText(written.eventTimes).first()).toBeVisible();
      // The server wrote the same characters the browser does, so hydration finds no difference.
      expect(await serverText(page, "/events", locale)).toMatch(written.eventTimes);
      await expectNoSeriousAxeViolations(page);

      // Settings: when access was granted, date and time with the zone's name.
      await page.goto("/settings");
      await expect(page.getByText(written.dateTime)).toBeVisible();
      await expectNoSeriousAxeViolations(page);

      expect(hydrationReports).toEqual([]);
    });
  });
}
