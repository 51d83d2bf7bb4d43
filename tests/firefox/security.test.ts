import type { Page } from "puppeteer-core";
import { expect, test } from "vitest";

import { DASHBOARD_FRAME_TITLE } from "../journeys/embedded";
import { expectOverview, openPage, signInFromLanding } from "../journeys/member-journey";
import {
  expectNeverFramed,
  expectNoToken,
  expectPageSecurityHeaders,
  expectPrerenderedPageSecurityHeaders,
  runInjectedScripts,
} from "../journeys/security";
import { APP_URL, SITE_URL, SITE_URL_AS_LOCALHOST } from "../journeys/urls";

import { SetCookieJar } from "../../sandbox/cookie-jar";
import { authorizeWithoutBrowser } from "../../sandbox/testing";

import { firefoxForThisFile, freshPage, openPageWithRefusedFrame } from "./firefox";
import { puppeteerDriver } from "./puppeteer-driver";

const firefox = firefoxForThisFile();

/** Opens a page and returns the headers of the document as Firefox received it. */
async function documentHeaders(page: Page, url: string): Promise<Record<string, string>> {
  // page.goto's own answer is sometimes null over BiDi in Firefox; the response event always comes.
  const [response] = await Promise.all([page.waitForResponse((candidate) => candidate.url() === url), page.goto(url)]);
  return response.headers();
}

test("pages reach Firefox with a per-request CSP nonce that its scripts carry, framing limits and no-store", async () => {
  const { context, page } = await freshPage(firefox());
  const nonce = expectPageSecurityHeaders(await documentHeaders(page, `${APP_URL}/`), SITE_URL);
  // Firefox hides the nonce attribute from the DOM, but the scripts it runs carry it.
  expect(await page.evaluate((expected) => [...document.scripts].some((script) => script.nonce === expected), nonce)).toBe(true);
  expect((await documentHeaders(page, `${APP_URL}/`))["content-security-policy"]).not.toContain(nonce);
  expectNeverFramed(await documentHeaders(page, `${APP_URL}/sign-in-problem?code=login_expired`));
  await context.close();
});

test("Firefox runs the prerendered signed-out page's own scripts by their hashes and nothing injected", async () => {
  const { context, page } = await freshPage(firefox());
  const url = `${APP_URL}/signed-out?reason=signed_out&returnTo=%2Fcourses`;
  expectPrerenderedPageSecurityHeaders(await documentHeaders(page, url), APP_URL, SITE_URL);
  // Hydrated: the site's name is asked for once the page runs (GET /api/site), the way back read from the address.
  const driver = puppeteerDriver(page);
  await driver.expectVisible({ text: /You are still signed in at Demo Academy \(sandbox\)\./ });
  expect(await page.$eval("a[href^='/api/auth/login']", (link) => link.getAttribute("href"))).toBe("/api/auth/login?returnTo=%2Fcourses");
  expect(await page.evaluate(runInjectedScripts)).toEqual([]);
  await context.close();
});

test("Firefox refuses to frame the dashboard in a page outside EMBED_ORIGINS", async () => {
  const { context, page } = await freshPage(firefox());
  // The load event waits for the frame, blocked or not.
  await openPageWithRefusedFrame(page, `${SITE_URL_AS_LOCALHOST}/my-learning`);
  const frame = await (await page.waitForSelector(`iframe[title="${DASHBOARD_FRAME_TITLE}"]`))!.contentFrame();
  expect(await frame.$('::-p-aria([name="Sign in"][role="link"])')).toBeNull();
  await context.close();
});

test("Firefox never sees a token: not in the HTML, RSC payloads, API answers or cookies", async () => {
  const { context, page } = await freshPage(firefox());
  const bodies: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.url().startsWith(APP_URL) && response.status() < 300) bodies.push(response.text().catch(() => ""));
  });
  const driver = puppeteerDriver(page);
  await page.goto(APP_URL);
  await signInFromLanding(driver, "maya@example.com");
  await expectOverview(driver, "Maya");
  await openPage(driver, "Courses");
  await driver.expectVisible({ role: "heading", name: "Courses" });

  const seen = (await Promise.all(bodies)).filter((body) => body.length > 0);
  expect(seen.length).toBeGreaterThan(3);
  expectNoToken(seen.join("\n"));
  const session = (await page.cookies(APP_URL)).find((cookie) => cookie.name.startsWith("dash_session"));
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  expect(await page.evaluate(() => document.cookie)).not.toContain("dash_session");
  await context.close();
});

test("Where you're signed in, in Firefox: this device first, and Sign out there ends the other session", async () => {
  // Another sign-in of the same member (over HTTP, as another device would), then this one in Firefox.
  const otherDevice = await signInAsAnotherDevice();
  const { context, page } = await freshPage(firefox());
  const driver = puppeteerDriver(page);
  await page.goto(APP_URL);
  await signInFromLanding(driver, "maya@example.com");
  await expectOverview(driver, "Maya");
  await openPage(driver, "Settings");
  await driver.expectVisible({ role: "heading", name: "Where you're signed in" });
  await driver.expectVisible({ text: "This device" });
  await driver.click({ role: "button", name: "Sign out everywhere else" });
  await driver.expectVisible({ text: "Signed out there." });
  expect((await fetch(`${APP_URL}/api/session`, { headers: otherDevice.headers() })).status).toBe(401);
  expect(await page.evaluate(async () => (await fetch("/api/session")).status)).toBe(200);
  await context.close();
});

/** Signs Maya in over plain HTTP through the sandbox's pages: the cookies of another device. */
async function signInAsAnotherDevice(): Promise<SetCookieJar> {
  const jar = new SetCookieJar();
  const login = jar.absorb(await fetch(`${APP_URL}/api/auth/login?returnTo=%2F`, { redirect: "manual" }));
  const redirect = await authorizeWithoutBrowser(login.headers.get("location")!, { email: "maya@example.com" });
  jar.absorb(await fetch(`${APP_URL}${redirect.pathname}${redirect.search}`, { headers: jar.headers(), redirect: "manual" }));
  return jar;
}
