import { expect, test } from "vitest";

import {
  expectCourses,
  expectEvents,
  expectOrders,
  expectOverview,
  expectSettings,
  findJapaneseCourses,
  openPage,
  revokeAccess,
  showEveryCourse,
  signInFromLanding,
  signOutFromHeaderMenu,
  switchLanguageAndBack,
} from "../journeys/member-journey";
import { APP_URL, SITE_URL } from "../journeys/urls";
import { postSandboxControl } from "../../sandbox/testing";
import { waitUntil } from "../support/wait-until";

import { firefoxForThisFile, freshPage, sessionStatus } from "./firefox";
import { puppeteerDriver } from "./puppeteer-driver";

const firefox = firefoxForThisFile();

test("a student signs in through the site's pages, sees every page's data, switches language, and revokes access", async () => {
  const { context, page } = await freshPage(firefox());
  const driver = puppeteerDriver(page);
  await page.goto(APP_URL);
  await signInFromLanding(driver, "maya@example.com");

  await expectOverview(driver, "Maya");
  await openPage(driver, "Courses");
  const resume = await expectCourses(driver);
  // The Resume link lands on the lecture in the site, at the second where the member stopped.
  await page.goto(resume);
  await driver.expectVisible({ text: /1:02:05/ });
  await page.goto(`${APP_URL}/orders`);
  await expectOrders(driver);
  await openPage(driver, "Events");
  await expectEvents(driver);
  await openPage(driver, "Settings");
  await expectSettings(driver, "maya@example.com");
  await switchLanguageAndBack(driver);
  await revokeAccess(driver);

  // The session is gone, and the site saw the grant revoked.
  expect(await sessionStatus(page)).toBe(401);
  const log = (await (await fetch(`${SITE_URL}/__sandbox/requests`)).json()) as { endpoint: string; status: number }[];
  expect(log.filter((entry) => entry.endpoint === "revoke" && entry.status === 200).length).toBeGreaterThanOrEqual(1);
  await context.close();
});

test("a student with 130 enrollments pages to the last course", async () => {
  const { context, page } = await freshPage(firefox());
  const driver = puppeteerDriver(page);
  await page.goto(`${APP_URL}/courses`);
  await signInFromLanding(driver, "kai@example.com");
  await driver.waitForUrl(/\/courses$/);
  await showEveryCourse(driver, 130);
  await context.close();
});

test("a student finds a course by name, then signs out from the header menu, at the site too", async () => {
  const { context, page } = await freshPage(firefox());
  const driver = puppeteerDriver(page);
  await page.goto(`${APP_URL}/courses`);
  await signInFromLanding(driver, "kai@example.com");
  await driver.waitForUrl(/\/courses$/);
  await findJapaneseCourses(driver);
  await signOutFromHeaderMenu(driver, "Kai Lin");
  expect(await sessionStatus(page)).toBe(401);
  await page.goto(SITE_URL);
  await driver.expectNone({ text: /You are signed in to the sandbox as/ });
  await context.close();
});

test("a cover the site's image host does not serve gives way to the plain cover in Firefox too", async () => {
  const { context, page } = await freshPage(firefox());
  const driver = puppeteerDriver(page);
  const covers = () =>
    page.evaluate(() => {
      const cards = [...document.querySelectorAll("main article")];
      const images = [...document.querySelectorAll<HTMLImageElement>("main img")];
      return {
        cards: cards.length,
        images: images.length,
        loaded: images.filter((image) => image.naturalWidth > 0).length,
        plain: cards.filter((card) => card.firstElementChild?.matches("div[aria-hidden='true']")).length,
      };
    });
  const failing = await postSandboxControl(SITE_URL, "/__sandbox/knobs", { failures: { covers: { mode: "status", status: 404 } } });
  expect(failing.ok).toBe(true);
  await page.goto(`${APP_URL}/courses`);
  await signInFromLanding(driver, "maya@example.com");
  await driver.waitForUrl(/\/courses$/);

  // The host does not serve them: the plain cover on every card, no broken image.
  const failed = await waitUntil(
    async () => {
      const now = await covers();
      return now.cards > 0 && now.images === 0 && now;
    },
    { what: "no broken cover left", timeoutMs: 15_000 },
  );
  expect(failed.plain).toBe(failed.cards);

  // Once it serves them again, the page loaded again shows every card's cover.
  const serving = await postSandboxControl(SITE_URL, "/__sandbox/knobs", { failures: { covers: null } });
  expect(serving.ok).toBe(true);
  await page.reload();
  const served = await waitUntil(
    async () => {
      const now = await covers();
      return now.cards > 0 && now.loaded === now.cards && now;
    },
    { what: "every card's cover loaded", timeoutMs: 15_000 },
  );
  expect(served).toEqual({ cards: failed.cards, images: failed.cards, loaded: failed.cards, plain: 0 });
  await context.close();
});

test("Sign out pressed before the page is interactive says so, and signs out once the scripts have run, in Firefox too", async () => {
  const { context, page } = await freshPage(firefox());
  const driver = puppeteerDriver(page);
  await page.goto(`${APP_URL}/settings`);
  await signInFromLanding(driver, "maya@example.com");
  await driver.waitForUrl(/\/settings$/);

  // A slow phone: the page again, its scripts held back until the member has pressed Sign out.
  let releaseScripts = () => {};
  const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    if (/\/_next\/static\/chunks\/.+\.js$/.test(request.url())) void scriptsHeld.then(() => request.continue());
    else void request.continue();
  });
  await page.goto(`${APP_URL}/settings`, { waitUntil: "domcontentloaded" });
  // Firefox answers BiDi's accessibility locator only once the document has loaded, which held scripts
  // keep it from: until then the controls are found by their place in the header.
  // Each is pressed once the browser has laid it out (DOMContentLoaded may come before the stylesheet has).
  await (await page.waitForSelector('nav[aria-label="Account"] button[popovertarget]', { visible: true }))!.click();
  await (await page.waitForSelector('nav[aria-label="Account"] [popover="auto"] button', { visible: true }))!.click();
  expect(await page.evaluate(() => Object.keys(document.querySelector("nav button")!).some((key) => key.startsWith("__react")))).toBe(
    false,
  );
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[role="status"]')].some(
      (notice) => notice.textContent === "Signing out as soon as the page has loaded…" && notice.checkVisibility(),
    ),
  );
  // Under Sign out, at the right end of the header's menu, it ends where the button ends, its text on two lines
  // of its 22rem rather than squeezed into the page's last 200 px (app/globals.css).
  const placed = await page.evaluate(() => {
    const notice = [...document.querySelectorAll('[role="status"]')].find((element) => element.checkVisibility())!;
    const button = document.querySelector('nav[aria-label="Account"] [popover="auto"] button')!;
    const [shown, pressed] = [notice.getBoundingClientRect(), button.getBoundingClientRect()];
    return { below: shown.top >= pressed.bottom, endGap: Math.abs(shown.right - pressed.right), width: shown.width };
  });
  expect(placed.below).toBe(true);
  expect(placed.endGap).toBeLessThan(1);
  expect(placed.width).toBe(22 * 16);
  expect(await sessionStatus(page)).toBe(200);

  releaseScripts();
  await driver.waitForUrl(/\/signed-out\?state=/);
  expect(await sessionStatus(page)).toBe(401);
  await context.close();
});
