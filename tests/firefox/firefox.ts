import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import puppeteer, { type Browser, type BrowserContext, type Frame, type Page } from "puppeteer-core";
import { afterAll, beforeAll, beforeEach } from "vitest";

import { postSandboxControl } from "../../sandbox/testing";
import { SITE_URL } from "../journeys/urls";

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";

/**
 * Firefox's cookie behaviours (network.cookie.cookieBehavior): 5 is what Firefox ships, Total Cookie
 * Protection (third-party cookies kept in per-site partitions); 1 is the user's choice "All cross-site
 * cookies" in the Enhanced Tracking Protection settings, which refuses them.
 */
export const COOKIES = { totalCookieProtection: 5, blockAllCrossSite: 1 } as const;

export interface Firefox {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Debian's Firefox ESR, headless, over WebDriver BiDi, with a fresh profile per launch. puppeteer's test
 * profile turns Total Cookie Protection off (its "standard" content blocking carries cookieBehavior0);
 * here Firefox keeps its own cookie behaviour, so embedded mode is tested the way members meet it.
 * `morePrefs` adds preferences of a member's own (a larger default font size).
 */
export async function launchFirefox(
  cookieBehavior: number = COOKIES.totalCookieProtection,
  morePrefs: Record<string, string | number | boolean> = {},
): Promise<Firefox> {
  const profile = mkdtempSync(path.join(tmpdir(), "firefox-profile-"));
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX_PATH,
    headless: true,
    userDataDir: profile,
    // The demo site's members live in Taipei; the dashboard shows times in the browser's zone.
    env: { ...process.env, TZ: "Asia/Taipei" },
    extraPrefsFirefox: {
      "browser.contentblocking.features.standard": "-tp,tpPrivate,-cryptoTP,-fp",
      "network.cookie.cookieBehavior": cookieBehavior,
      // Firefox's popup blocker, as members have it: only a click may open a window.
      "dom.disable_open_during_load": true,
      ...morePrefs,
    },
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A fresh private browser context (its own cookies) with one page. */
export async function freshPage(firefox: Firefox): Promise<{ context: BrowserContext; page: Page }> {
  const context = await firefox.browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  return { context, page };
}

/**
 * Opens `url` as a link followed by the page would (its load event awaited), not with BiDi's
 * `browsingContext.navigate` (puppeteer's `page.goto`). In Firefox 153 that command fails with "Address
 * rejected" when a frame of the page shows an error page before the page is interactive: its remote agent
 * (Navigate.sys.mjs, onLocationChange) takes the frame's error page, here a frame it refuses, for the
 * page's own. A page whose `<script>` outlasts the frame's answer fails this way every time.
 */
export async function openPageWithRefusedFrame(page: Page, url: string): Promise<void> {
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.evaluate((target) => {
      window.location.href = target;
    }, url),
  ]);
}

/** The sandbox's state back to its seed, as the Chromium suite does before every test. */
export async function resetSandbox(): Promise<void> {
  const response = await postSandboxControl(SITE_URL, "/__sandbox/reset");
  if (!response.ok) throw new Error(`The sandbox did not reset: ${response.status}`);
}

/** For a test file: one Firefox with the cookie behaviour it ships with, and the sandbox reset before each test. */
export function firefoxForThisFile(): () => Firefox {
  let firefox: Firefox | undefined;
  beforeAll(async () => {
    firefox = await launchFirefox();
  });
  afterAll(async () => {
    await firefox?.close();
  });
  beforeEach(resetSandbox);
  return () => {
    if (!firefox) throw new Error("Firefox is not running.");
    return firefox;
  };
}

/** Asks the dashboard for the session from inside a document: the status says whether its cookie came along. */
export async function sessionStatus(document: Page | Frame): Promise<number> {
  return document.evaluate(async () => (await fetch("/api/session", { cache: "no-store" })).status);
}
