/**
 * The member journey as page-object steps, shared by the Chromium suite (tests/e2e/member-journey.spec.ts)
 * and the Firefox suite (tests/firefox/member-journey.test.ts): the same names, URLs and data to see.
 */
import assert from "node:assert/strict";

import { eventually, type JourneyDriver, type Target } from "./driver";
import { SITE_URL } from "./urls";

const NAVIGATION: Target = { role: "navigation" };
/** The header's right end, where the account lives (Settings; the account menu once it is there). */
const ACCOUNT_NAVIGATION: Target = { role: "navigation", name: "Account" };
export const PAGE_NAMES = ["Overview", "Courses", "Orders", "Events", "Settings"] as const;
export type PageName = (typeof PAGE_NAMES)[number];
/** The pages of the tabs (a bottom bar on phones, the header's row on wider screens). */
export const TAB_NAMES = ["Overview", "Courses", "Orders", "Events"] as const satisfies readonly PageName[];

/** A link of the main navigation (the first navigation landmark: the tabs, or the panel's sections). */
export function navigationLink(name: string): Target {
  return { role: "link", name, within: NAVIGATION };
}

/** The account menu's button (named with the member's name), at the header's right end. */
export const ACCOUNT_MENU: Target = { role: "button", within: ACCOUNT_NAVIGATION };

/** From the signed-out landing page: the Sign in link, then the site's own pages. */
export async function signInFromLanding(driver: JourneyDriver, email: string): Promise<void> {
  await driver.click({ role: "link", name: "Sign in" });
  await driver.waitForUrl(new RegExp(`^${escapeRegExp(SITE_URL)}/oauth/authorize`));
  await completeSiteSignIn(driver, email);
}

/** On the site's pages: signs in when asked (the site may remember the member), then allows the dashboard. */
export async function completeSiteSignIn(driver: JourneyDriver, email: string): Promise<void> {
  const allow: Target = { role: "button", name: "Allow" };
  const emailField: Target = { label: "Email" };
  await eventually(async () =>
    assert.ok(
      (await driver.isVisible(allow)) || (await driver.isVisible(emailField)),
      "the site shows neither its sign-in nor its consent page",
    ),
  );
  if (await driver.isVisible(emailField)) {
    await driver.fill(emailField, email);
    await driver.fill({ label: "Password" }, "demo");
    await driver.click({ role: "button", name: "Sign in" });
  }
  await driver.click(allow);
}

export async function openPage(driver: JourneyDriver, name: PageName): Promise<void> {
  if (name === "Settings") {
    await driver.click(ACCOUNT_MENU);
    await driver.click({ role: "link", name, within: ACCOUNT_NAVIGATION });
  } else {
    await driver.click(navigationLink(name));
  }
  await driver.waitForUrl(new RegExp(`/${name === "Overview" ? "" : name.toLowerCase()}$`));
}

/** Overview: the member's name, every page in the navigation, what to continue watching. */
export async function expectOverview(driver: JourneyDriver, firstName: string): Promise<void> {
  await driver.expectVisible({ role: "heading", name: new RegExp(firstName) });
  for (const name of TAB_NAMES) await driver.expectVisible(navigationLink(name));
  await driver.expectVisible(ACCOUNT_MENU);
  await driver.expectVisible({ role: "heading", name: "Continue watching" });
}

/**
 * Courses: access states in words, a Resume link pointing at the lecture in the site (at the second where
 * the member stopped), none on an ended course. Returns that Resume link's address.
 */
export async function expectCourses(driver: JourneyDriver): Promise<string> {
  await driver.expectVisible({ text: "Lifetime access" });
  await driver.expectVisible({ text: /Access ends in 3\sdays/ });
  await driver.expectVisible({ text: /Access ended on/ });
  const href = await driver.attribute({ role: "link", name: /^Resume at 1:02:05/ }, "href");
  assert.match(href ?? "", new RegExp(`^${escapeRegExp(SITE_URL)}/courses/[\\w-]+/lectures/[\\w-]+\\?t=3725$`));
  const endedCard: Target = { role: "article", hasText: /Access ended on/ };
  await driver.expectVisible(endedCard);
  assert.equal(await driver.count({ role: "link", name: /^Resume/, within: endedCard }), 0);
  return href!;
}

/** Orders: a refund and prices in both currencies. */
export async function expectOrders(driver: JourneyDriver): Promise<void> {
  await driver.expectVisible({ text: /Refunded/ });
  await driver.expectVisible({ text: /NT\$/ });
  await driver.expectVisible({ text: /US\$|\$\d/ });
}

/** Events: a cancelled event, and the calendar button. */
export async function expectEvents(driver: JourneyDriver): Promise<void> {
  await driver.expectVisible({ text: /Cancelled/ });
  await driver.expectVisible({ role: "button", name: /Add to calendar/ });
}

export async function expectSettings(driver: JourneyDriver, email: string): Promise<void> {
  await driver.expectVisible({ text: email });
}

/** In Settings: to Traditional Chinese and back; each switch re-renders the whole app in the language. */
export async function switchLanguageAndBack(driver: JourneyDriver): Promise<void> {
  await driver.click({ role: "radio", name: "繁體中文" });
  await driver.expectVisible(navigationLink("課程"));
  await driver.click({ role: "radio", name: "English" });
  await driver.expectVisible(navigationLink("Courses"));
}

/** In Settings: Revoke access, with its confirmation, signs the member out. */
export async function revokeAccess(driver: JourneyDriver): Promise<void> {
  await driver.click({ role: "button", name: "Revoke access" });
  await driver.click({ role: "button", name: "Yes, revoke" });
  await driver.waitForUrl(/\/signed-out\?reason=revoked/);
  await driver.expectVisible({ text: /no longer grants this app access/ });
}

/** Courses of a member with many enrollments: Show more until every course is there, then no more button. */
export async function showEveryCourse(driver: JourneyDriver, total: number): Promise<void> {
  const cards: Target = { role: "article" };
  const more: Target = { role: "button", name: /^Show (\d+\s)?more/ };
  // The list's status line, read as text: a lookup by role walks the accessibility tree, which grows with every
  // page shown (seconds in Firefox), so the cards themselves are counted by role once, at the end.
  const status: Target = { text: new RegExp(`^Showing \\d+\\sof ${total}$`) };
  const shownNow = async () => Number(/^Showing (\d+)/.exec(await driver.text(status))?.[1]);
  await driver.expectVisible(cards);
  await driver.expectVisible({ text: `${total} courses` });
  let shown = await shownNow();
  for (let round = 0; round < total && shown < total; round += 1) {
    await driver.click(more);
    await eventually(async () => {
      const now = await shownNow();
      assert.ok(now > shown, "Show more added no course");
      shown = now;
    });
  }
  assert.equal(shown, total);
  assert.equal(await driver.count(cards), total);
  await driver.expectNone(more);
}

/** Courses: "Find a course" narrows 130 enrollments to the Japanese ones, kept in the URL, the ended one last. */
export async function findJapaneseCourses(driver: JourneyDriver): Promise<void> {
  await driver.expectVisible({ text: "Showing 24 of 130" });
  await driver.fill({ label: "Find a course" }, "Japanese");
  await driver.waitForUrl(/[?&]q=Japanese(&|$)/);
  await driver.expectVisible({ text: "Showing 7 of 7" });
  await eventually(async () => assert.equal(await driver.count({ role: "article" }), 7));
  await driver.expectVisible({ role: "article", hasText: "Hands-on Lab: Japanese Grammar" });
}

/** From any page: the header's account menu (named with the member's name), then Sign out. */
export async function signOutFromHeaderMenu(driver: JourneyDriver, memberName: string): Promise<void> {
  await driver.click({ role: "button", name: memberName });
  await driver.click({ role: "button", name: "Sign out" });
  await driver.waitForUrl(/\/signed-out\?state=/);
  await driver.expectVisible({ text: /You are also signed out of Demo Academy/ });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
