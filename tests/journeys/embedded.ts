/**
 * Embedded mode as page-object steps, shared by tests/e2e/embedded.spec.ts (Chromium) and
 * tests/firefox/embedded.test.ts (Firefox): the frame on the site's "My learning" page, driven as a person would.
 */
import assert from "node:assert/strict";

import { type JourneyDriver } from "./driver";
import { ACCOUNT_MENU, completeSiteSignIn } from "./member-journey";

export const DASHBOARD_FRAME_TITLE = "Member dashboard";
export const NEEDS_STORAGE_ACCESS = "Your browser asks before this panel may remember you on this site.";
export const COOKIES_BLOCKED =
  "Your browser does not let this panel remember you inside the site. Open the dashboard in a new tab instead.";
const SIGN_IN = { role: "link", name: "Sign in" } as const;
const NEW_TAB = { role: "link", name: "Open the dashboard in a new tab" } as const;

/**
 * Signed out in the frame: the panel's own Sign in (a popup once hydrated; without scripts, a new tab, never
 * the frame itself, which the site's sign-in refuses), the compact layout (no second brand header), the
 * new-tab link.
 */
export async function expectSignedOutFrame(frame: JourneyDriver): Promise<void> {
  await frame.expectVisible(SIGN_IN);
  assert.equal(await frame.attribute(SIGN_IN, "target"), "_blank");
  await frame.expectNone({ role: "link", name: DASHBOARD_FRAME_TITLE });
  await frame.expectVisible(NEW_TAB);
}

/** Sign in opens the site's pages in a popup; the popup hands the session back to the frame and closes. */
export async function signInThroughPopup(frame: JourneyDriver, email: string): Promise<void> {
  const popup = await frame.clickOpeningPopup(SIGN_IN);
  await completeSiteSignIn(popup, email);
  await popup.closed();
}

/** The frame shows the member's own data. */
export async function expectSignedInFrame(frame: JourneyDriver, firstName: string): Promise<void> {
  await frame.expectVisible({ role: "heading", name: new RegExp(firstName) });
}

/**
 * Signed in, the panel has two sections and the account menu; the menu's Sign out, once confirmed, ends on
 * the panel's own signed-out state (its Sign in, not the top-level one).
 */
export async function signOutInFrame(frame: JourneyDriver): Promise<void> {
  await frame.expectVisible(NEW_TAB);
  for (const section of PANEL_SECTIONS) await frame.expectVisible({ role: "link", name: section, within: { role: "navigation" } });
  await frame.click(ACCOUNT_MENU);
  await frame.click({ role: "button", name: "Sign out", within: { role: "navigation", name: "Account" } });
  // Inside the site's page Sign out asks first; the confirmation arms itself once the page has been in view.
  await frame.click({ role: "button", name: "Yes, sign out", within: { role: "navigation", name: "Account" } });
  await expectSignedOutFrame(frame);
  // Still signed in at the site, which is the page around the panel (its pages refuse to be framed): the
  // panel says to sign out there, with no link that would open the site in here.
  await frame.expectVisible({ text: /also sign out of Demo Academy \(sandbox\) itself, on the page around this panel/ });
  await frame.expectNone({ role: "link", name: /^Open Demo Academy/ });
}

export const PANEL_SECTIONS = ["Learning", "Orders & events"] as const;

/** The frame's cookie was refused: the frame says so and offers a second click. */
export async function expectStorageAccessNeeded(frame: JourneyDriver): Promise<void> {
  await frame.expectVisible({ text: NEEDS_STORAGE_ACCESS });
}

/** The second click, which asks the browser for storage access (browsers require a click for it). */
export async function continueSigningIn(frame: JourneyDriver): Promise<void> {
  await frame.click({ role: "button", name: "Continue signing in" });
}

/** The browser refused even storage access: the frame says so plainly, and the new-tab link remains. */
export async function expectCookiesBlockedFrame(frame: JourneyDriver): Promise<void> {
  await frame.expectVisible({ text: COOKIES_BLOCKED });
  await frame.expectVisible(NEW_TAB);
}
