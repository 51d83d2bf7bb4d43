import type { Page } from "puppeteer-core";
import { afterEach, beforeEach, expect, test } from "vitest";

import {
  continueSigningIn,
  DASHBOARD_FRAME_TITLE,
  expectCookiesBlockedFrame,
  expectSignedInFrame,
  expectSignedOutFrame,
  expectStorageAccessNeeded,
  signInThroughPopup,
  signOutInFrame,
} from "../journeys/embedded";
import { expectOverview, navigationLink, signInFromLanding } from "../journeys/member-journey";
import { APP_URL, HOST_PAGE } from "../journeys/urls";

import { COOKIES, freshPage, launchFirefox, resetSandbox, sessionStatus, type Firefox } from "./firefox";
import { puppeteerDriver } from "./puppeteer-driver";
import { waitUntil } from "../support/wait-until";

let firefox: Firefox | undefined;

beforeEach(resetSandbox);

afterEach(async () => {
  await firefox?.close();
  firefox = undefined;
});

/** The document in the dashboard's frame, looked up again every time (the frame navigates when signed in). */
async function frameDocument(page: Page) {
  return (await page.waitForSelector(`iframe[title="${DASHBOARD_FRAME_TITLE}"]`))!.contentFrame();
}

function dashboardFrame(page: Page) {
  return puppeteerDriver(page, () => frameDocument(page));
}

async function frameHeight(page: Page): Promise<number> {
  return page.$eval(`iframe[title="${DASHBOARD_FRAME_TITLE}"]`, (element) => element.clientHeight);
}

/** The site sized the frame to the panel's content (the panel's height message): nothing scrolls inside it. */
async function expectFrameFitsContent(page: Page): Promise<void> {
  let last = "";
  const fits = async () => {
    const outer = await frameHeight(page);
    const inner = await (
      await frameDocument(page)
    ).evaluate(() => ({ scroll: document.documentElement.scrollHeight, client: document.documentElement.clientHeight }));
    last = JSON.stringify({ outer, ...inner });
    return inner.scroll <= inner.client + 1 && Math.abs(outer - inner.client) <= 1;
  };
  await waitUntil(fits, { what: "the frame fitting its content", timeoutMs: 10_000, intervalMs: 200 }).catch(() => {
    throw new Error(`the frame does not fit its content: ${last}`);
  });
}

/** Firefox with that cookie behaviour, on the site's page, the dashboard's frame signed out. */
async function openHostPage(cookieBehavior: number) {
  firefox = await launchFirefox(cookieBehavior);
  const { context, page } = await freshPage(firefox);
  await page.goto(HOST_PAGE);
  const frame = dashboardFrame(page);
  await expectSignedOutFrame(frame);
  return { context, page, frame };
}

test("with Total Cookie Protection, the popup's sign-in fills the frame and its cookie stays in the site's partition", async () => {
  const { context, page, frame } = await openHostPage(COOKIES.totalCookieProtection);

  await signInThroughPopup(frame, "maya@example.com");
  await expectSignedInFrame(frame, "Maya");

  // The frame's session: an HttpOnly, Secure, SameSite=None cookie, and no top-level session cookie.
  const cookies = await page.cookies(APP_URL);
  expect(cookies.find((cookie) => cookie.name === "__Host-dash_embedded")).toMatchObject({
    httpOnly: true,
    secure: true,
    sameSite: "None",
  });
  expect(cookies.some((cookie) => cookie.name.includes("dash_session"))).toBe(false);
  // Used by the frame, and by nobody else: the dashboard opened in its own tab is another partition.
  expect(await sessionStatus(await frameDocument(page))).toBe(200);
  const topLevel = await context.newPage();
  await topLevel.goto(APP_URL);
  expect(await sessionStatus(topLevel)).toBe(401);
  await topLevel.close();

  await expectFrameFitsContent(page);
  const overviewHeight = await frameHeight(page);

  // The member's courses in the frame; Resume links leave the frame for the top window.
  await frame.click(navigationLink("Courses"));
  expect(await frame.attribute({ role: "link", name: /^Resume at 1:02:05/ }, "target")).toBe("_top");
  // The site resized the frame to the taller page: no scrollbar inside it.
  await expectFrameFitsContent(page);
  expect(await frameHeight(page)).toBeGreaterThan(overviewHeight);

  // Sign out inside the frame ends on the panel's own Sign in, and one press signs in again.
  await signOutInFrame(frame);
  await signInThroughPopup(frame, "maya@example.com");
  await expectSignedInFrame(frame, "Maya");
  await expectFrameFitsContent(page);
});

test("with all cross-site cookies blocked, the frame asks for storage access, and on refusal the new tab signs in", async () => {
  const { context, page, frame } = await openHostPage(COOKIES.blockAllCrossSite);

  await signInThroughPopup(frame, "maya@example.com");
  // Firefox refused the frame's cookie: the frame asks for storage access on the second click...
  await expectStorageAccessNeeded(frame);
  await continueSigningIn(frame);
  // ...which Firefox refuses where the member blocks every cross-site cookie.
  await expectCookiesBlockedFrame(frame);
  expect(await sessionStatus(await frameDocument(page))).toBe(401);
  expect(await (await frameDocument(page)).evaluate(() => document.hasStorageAccess())).toBe(false);

  // The new-tab link opens the dashboard at the top level, where signing in works as usual.
  const href = await frame.attribute({ role: "link", name: "Open the dashboard in a new tab" }, "href");
  const tab = await context.newPage();
  await tab.goto(new URL(href!, APP_URL).toString());
  const tabDriver = puppeteerDriver(tab);
  await signInFromLanding(tabDriver, "maya@example.com");
  await expectOverview(tabDriver, "Maya");
});
