import AxeBuilder from "@axe-core/playwright";
import { expect, type BrowserContext, type FrameLocator, type Locator, type Page } from "@playwright/test";

import { LOCALE_COOKIE, type Locale } from "../../lib/i18n/locales";
import type { EnrollmentData } from "../../sandbox/data/account";
import { authorizeWithoutBrowser, type SendRequest } from "../../sandbox/testing";

import { cutOff } from "../journeys/layout-checks";
import { completeSiteSignIn as completeSiteSignInSteps } from "../journeys/member-journey";
import { APP_URL, SITE_URL } from "../journeys/urls";

import { playwrightDriver } from "./playwright-driver";

export { hydrated, isHydrated } from "./playwright-driver";

export { APP_URL, HOST_PAGE, SITE_URL, SITE_URL_AS_LOCALHOST } from "../journeys/urls";

/** The language the dashboard speaks from the next request on, as the switch in Settings leaves it. */
export async function chooseLanguage(context: BrowserContext, locale: Locale): Promise<void> {
  await context.addCookies([{ name: LOCALE_COOKIE, value: locale, url: APP_URL }]);
}

/**
 * Signs in from the page's Sign in link through the sandbox's real sign-in and consent pages. Their forms are
 * sent by the browser context's own requests rather than drawn and clicked (member-journey.spec.ts and the
 * Firefox suite draw them), which saves the suite a second per test; the site's cookies land in the browser,
 * and the browser itself follows the site's redirect to the dashboard's callback and on to the page.
 */
export async function signIn(page: Page, email: string, options: { from?: string } = {}): Promise<void> {
  await page.goto(options.from ?? "/");
  const href = await page.getByRole("link", { name: "Sign in" }).getAttribute("href");
  const started = await page.request.get(new URL(href ?? "", page.url()).href, { maxRedirects: 0 });
  const authorizeUrl = started.headers()["location"];
  if (started.status() !== 303 || authorizeUrl === undefined) throw new Error(`Sign in answered ${started.status()}`);
  const callback = await authorizeWithoutBrowser(new URL(authorizeUrl, page.url()).href, { email, send: sendFromContext(page) });
  await page.goto(callback.href);
}

/** Requests sent by the page's browser context (its cookies and User-Agent), no redirect followed. */
function sendFromContext(page: Page): SendRequest {
  return async (url, init) => {
    const answer = await page.request.fetch(url.href, {
      method: init.method ?? "GET",
      headers: Object.fromEntries(new Headers(init.headers)),
      data: typeof init.body === "string" ? init.body : undefined,
      maxRedirects: 0,
    });
    const body = answer.status() === 204 || answer.status() === 304 ? null : await answer.text();
    return new Response(body, {
      status: answer.status(),
      headers: answer.headersArray().map(({ name, value }): [string, string] => [name, value]),
    });
  };
}

/** On the site's pages: signs in when asked, then allows the dashboard. */
export async function completeSiteSignIn(page: Page, email: string): Promise<void> {
  await completeSiteSignInSteps(playwrightDriver(page), email);
}

/** Fails on any serious or critical accessibility violation. */
export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** Screenshots for the README and CI artifacts, at phone and desktop width. */
export async function screenshotPage(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [label, size] of [
    ["phone", { width: 390, height: 844 }],
    ["desktop", { width: 1280, height: 900 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `artifacts/screenshots/${name}-${label}.png` });
  }
  if (original) await page.setViewportSize(original);
}

/**
 * The browser's text size setting (Chromium's default font sizes, as its settings page sets them): rem and em
 * grow, the CSS pixel does not, and media queries in rem see it too, as they do on a student's phone (a root
 * font size set by the page would leave them at 16 px). It is set for the page and for each frame drawn by a
 * process of its own (the panel, from another origin), and holds while their DevTools sessions stay open:
 * for the rest of the test, across navigations.
 */
export async function setTextSize(page: Page, percent: number): Promise<void> {
  const fontSizes = { standard: Math.round((16 * percent) / 100), fixed: Math.round((13 * percent) / 100) };
  for (const target of [page, ...page.frames().slice(1)]) {
    const browserSettings = await page
      .context()
      .newCDPSession(target)
      .catch((error: unknown) => {
        // A frame drawn by its page's own process takes the page's settings.
        if (error instanceof Error && error.message.includes("does not have a separate CDP session")) return null;
        throw error;
      });
    await browserSettings?.send("Page.setFontSizes", { fontSizes });
  }
}

/**
 * The options of a select whose words would not show whole once chosen. A native select shows one line and
 * cuts what is wider than the room it gives (its padding and arrow aside); a customizable one
 * (`appearance: base-select`) lays its choice out as text, wrapped, and cuts only what overflows its box.
 */
export function choicesCutOff(select: Locator): Promise<string[]> {
  return select.evaluate((element) => {
    const chooser = element as HTMLSelectElement;
    const style = getComputedStyle(chooser);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    // The browser's arrow takes about 20 px inside the padding box.
    const room = chooser.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    const chosen = chooser.value;
    const cut = [...chooser.options].filter((option) => {
      chooser.value = option.value;
      if (style.appearance !== "base-select") return context.measureText(option.text).width > room;
      return chooser.scrollWidth > chooser.clientWidth || chooser.scrollHeight > chooser.clientHeight;
    });
    chooser.value = chosen;
    return cut.map((option) => option.text);
  });
}

/** What cannot be read whole inside `root` at the page's current width (layout-checks' cutOff). */
export function cutOffIn(root: Locator): Promise<string[]> {
  return root.evaluate(cutOff);
}

export async function resetSandbox(page: Page): Promise<void> {
  await postSandboxControl(page, "/__sandbox/reset");
}

/** POSTs to a sandbox control endpoint as it requires: JSON, with the sandbox's own Origin. */
export async function postSandboxControl(page: Page, path: `/__sandbox/${string}`, data: unknown = {}): Promise<void> {
  const response = await page.request.post(`${SITE_URL}${path}`, { data, headers: { origin: SITE_URL } });
  expect(response.ok()).toBe(true);
}

/** One request the sandbox logged (GET /__sandbox/requests). */
export interface SiteRequest {
  endpoint: string;
  status: number;
  seq: number;
  /** The coding the site compressed its answer in (the `contentCoding` knob), if it did. */
  contentCoding?: string;
}

/**
 * Marks the sandbox's request log now; the returned function reads what the site received after the mark.
 * A sign-in past a member's cap of sessions ends her oldest one (a revoke), so a test that counts what one
 * action asks of the site reads only what came after it.
 */
export async function markSiteRequests(page: Page): Promise<() => Promise<SiteRequest[]>> {
  const read = async () => (await (await page.request.get(`${SITE_URL}/__sandbox/requests`)).json()) as SiteRequest[];
  const lastSeq = Math.max(0, ...(await read()).map((entry) => entry.seq));
  return async () => (await read()).filter((entry) => entry.seq > lastSeq);
}

/** Whether the sandbox's enrollment has access that ends within 30 days of `now` ("Ending soon"). */
export function endsWithin30Days(enrollment: EnrollmentData, now: number): boolean {
  const expiry = enrollment.expireDate?.getTime();
  return expiry !== undefined && expiry > now && expiry - now <= 30 * 86_400_000;
}

/**
 * Opens `path` with its JavaScript held back, as a slow phone shows the server's HTML before the page is
 * interactive; returns the release, which lets the held scripts load.
 */
export async function gotoWithScriptsHeld(page: Page, path: string): Promise<() => void> {
  let releaseScripts = () => {};
  const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
  await page.route(/\/_next\/static\/chunks\/.+\.js$/, async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.goto(path, { waitUntil: "domcontentloaded" });
  return releaseScripts;
}

/**
 * Each line of a short text (a link's name, a heading, a badge) as the browser wrapped it, trimmed: every
 * text node inside it counted (a name with <wbr>s), text hidden from assistive technology (an arrow, a
 * badge's mark) left out unless `hiddenToo`. A character starts a new line when its middle is below the line before it (Geist
 * and a CJK face on one line do not put their glyphs' boxes at the same top).
 */
export function lineTexts(element: Locator, options: { hiddenToo?: boolean } = {}): Promise<string[]> {
  return element.evaluate((root, hiddenToo) => {
    const lines: { bottom: number; text: string }[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!hiddenToo && node.parentElement?.closest("[aria-hidden='true']")) continue;
      const text = node.textContent ?? "";
      for (let index = 0; index < text.length; index++) {
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const box = range.getBoundingClientRect();
        const last = lines.at(-1);
        if (last && box.top + box.height / 2 <= last.bottom) last.text += text[index];
        else lines.push({ bottom: box.bottom, text: text[index]! });
      }
    }
    return lines.map((line) => line.text.trim()).filter((line) => line !== "");
  }, options.hiddenToo ?? false);
}

/**
 * The last course with Resume among the 72 Courses shows after two "Show 24 more" (its row at 48 or later, far
 * below the first screen), its name, and its row found again by that name (after Back, a reload).
 */
export async function lastResumableOf72(scope: Page | FrameLocator): Promise<{ row: Locator; name: string; sameRow: Locator }> {
  const rows = scope.getByRole("main").getByRole("article");
  const row = rows.filter({ has: scope.getByRole("link", { name: /^Resume/ }) }).last();
  const name = (await row.getByRole("heading").textContent())!;
  expect(
    await rows.evaluateAll((all, wanted) => all.findIndex((article) => article.querySelector("h2, h3")?.textContent === wanted), name),
  ).toBeGreaterThanOrEqual(48);
  return { row, name, sameRow: rows.filter({ has: scope.getByRole("heading", { name, exact: true }) }) };
}

/**
 * Each line of the address a field shows, as the browser wrapped it: the copy beside the field that reads
 * the same as its value (it gives the MCP URL's box its height and, drawn under the transparent field, shows
 * the address with its breaks), read though it is hidden from assistive technology (the field gives the
 * address to them).
 */
export async function shownLines(field: Locator): Promise<string[]> {
  const copy = field.locator("xpath=../*[@aria-hidden='true']");
  await expect(copy).toHaveText(await field.inputValue());
  return lineTexts(copy, { hiddenToo: true });
}

/**
 * Where `lines` of `url` break where no reader expects a URL to go on: inside its scheme ("http://"), inside
 * a label of its host ("127" / ".0.0.1", "exam" / "ple.com") or inside its port's digits ("…:47" / "00/mcp").
 * Empty when every break falls between those parts.
 */
export function breaksInsideUrlParts(url: string, lines: string[]): string[] {
  expect(lines.join("")).toBe(url);
  const { protocol, hostname, port } = new URL(url);
  const parts: { name: string; start: number; end: number }[] = [{ name: "the scheme", start: 0, end: protocol.length + 2 }];
  let at = protocol.length + 2;
  for (const label of hostname.split(".")) {
    parts.push({ name: `the host's label ${label}`, start: at, end: at + label.length });
    at += label.length + 1;
  }
  if (port) parts.push({ name: `the port ${port}`, start: at, end: at + port.length });
  const found: string[] = [];
  let offset = 0;
  for (const [index, line] of lines.slice(0, -1).entries()) {
    offset += line.length;
    const inside = parts.find((part) => part.start < offset && offset < part.end);
    if (inside) found.push(`${JSON.stringify(line)} / ${JSON.stringify(lines[index + 1])} breaks inside ${inside.name}`);
  }
  return found;
}
