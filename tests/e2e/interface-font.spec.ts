import { expect, test, type Page } from "./test";

import { getMessages, LOCALES } from "../../lib/i18n";

import { accountNavigation } from "./account-menu";
import { chooseLanguage, hydrated, signIn } from "./support";

/** The interface font's files the page asks for (app/fonts: Geist's Latin face, preloaded; its extended face, on demand). */
function recordFontFiles(page: Page): string[] {
  const files: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "font") files.push(new URL(request.url()).pathname.split("/").pop()!);
  });
  return files;
}

const extendedFaces = (files: string[]) => files.filter((file) => file.startsWith("geist_extended"));

test("a page in either language downloads Geist's Latin face alone, and text beyond Latin brings the rest of Geist", async ({ page }) => {
  const fonts = recordFontFiles(page);
  await signIn(page, "maya@example.com");
  for (const locale of LOCALES) {
    await chooseLanguage(page.context(), locale);
    await page.goto("/courses");
    await expect(page.getByRole("heading", { level: 1, name: getMessages(locale).nav.courses })).toBeVisible();
    await page.evaluate(() => document.fonts.ready);
    expect(fonts.some((file) => file.startsWith("geist_latin"))).toBe(true);
    expect(extendedFaces(fonts)).toEqual([]);
  }

  // A member's name, a course title or a search in Polish or Russian is still set in Geist.
  const search = page.getByLabel(getMessages(LOCALES.at(-1)!).courses.findCourse);
  await search.fill("Łukasz Наталья");
  await expect.poll(() => extendedFaces(fonts).length).toBe(1);
  await expect.poll(() => page.evaluate(() => document.fonts.check("16px geistExtended", "Ł"))).toBe(true);
});

/**
 * Each text of the page in `language` (a `lang` prefix) that the browser drew, wholly or in part, with a font of
 * the system's that `systemFontAllowed` does not accept (Chromium's DevTools protocol names the fonts each
 * element's text was drawn with). Text marked as another language (the language switch's 繁體中文 or English)
 * is drawn with its script's fonts, as it should be, and code (a scope's name, an address to copy) with the
 * system's monospace font.
 */
async function textInSystemFonts(page: Page, language: string, systemFontAllowed: (family: string) => boolean): Promise<string[]> {
  const [ELEMENT_NODE, TEXT_NODE] = [1, 3];
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("DOM.enable");
  await devtools.send("CSS.enable");
  let found: string[] = [];
  let checked = 0;
  type DomNode = Awaited<ReturnType<typeof devtools.send<"DOM.getDocument">>>["root"];
  const visit = async (node: DomNode, inherited: string): Promise<void> => {
    if (["code", "kbd", "pre", "samp"].includes(node.localName)) return;
    const attributes = node.attributes ?? [];
    const langAt = attributes.findIndex((name, index) => index % 2 === 0 && name === "lang");
    const ownLanguage = langAt === -1 ? inherited : attributes[langAt + 1]!;
    const ownText = (node.children ?? []).filter((child) => child.nodeType === TEXT_NODE && child.nodeValue.trim() !== "");
    if (node.nodeType === ELEMENT_NODE && ownText.length > 0 && ownLanguage.startsWith(language)) {
      const { fonts } = await devtools.send("CSS.getPlatformFontsForNode", { nodeId: node.nodeId });
      checked += 1;
      for (const font of fonts.filter((used) => !used.isCustomFont && !systemFontAllowed(used.familyName))) {
        found.push(
          `<${node.localName}> ${JSON.stringify(
            ownText
              .map((child) => child.nodeValue.trim())
              .join(" ")
              .slice(0, 40),
          )}: ${font.familyName}`,
        );
      }
    }
    for (const child of node.children ?? []) await visit(child, ownLanguage);
  };
  try {
    // A part of the page that loads after it (Settings' list of AI assistants) may replace nodes while they are
    // walked: the walk then starts again on the document as it is, every text checked in one state of it.
    for (let attempt = 1; ; attempt += 1) {
      [found, checked] = [[], 0];
      const { root } = await devtools.send("DOM.getDocument", { depth: -1 });
      try {
        await visit(root, "");
        break;
      } catch (error) {
        if (attempt === 3 || !String(error).includes("Could not find node with given id")) throw error;
      }
    }
  } finally {
    await devtools.detach();
  }
  // The document says it is in that language (else nothing above was looked at).
  if (checked < 10) throw new Error(`only ${checked} texts in ${language} on ${page.url()}`);
  return found;
}

const englishTextInSystemFonts = (page: Page) => textInSystemFonts(page, "en", () => false);

/** The system's fonts for Han characters and CJK punctuation, which Geist does not have (Debian's fonts-noto-cjk here). */
const isCjkFont = (family: string) => /\bCJK\b/.test(family);

test("every page in English is drawn in Geist alone: no mark of the interface falls to a font of the system's", async ({ page }) => {
  // A character Geist lacks (＋, ✓, ▾ were) makes the browser search the system's fonts during the first layout,
  // which held the first paint, and draws it in another typeface (tests/unit/ui/geist-faces.test.ts).
  await signIn(page, "maya@example.com");
  for (const path of ["/", "/courses", "/orders", "/events", "/settings"]) {
    await page.goto(path);
    // Hydrated: the walk below reads the document as it stays.
    await hydrated(page.getByRole("heading", { level: 1 }));
    await page.evaluate(() => document.fonts.ready);
    expect(await englishTextInSystemFonts(page), path).toEqual([]);
  }
  // What opens on the Settings page: the access's details and the account menu.
  await page.getByRole("main").locator("summary").filter({ hasText: "Details" }).click();
  const account = accountNavigation(page);
  await account.getByRole("button", { name: "Maya Chen" }).click();
  await expect(account.getByRole("link", { name: "Settings" })).toBeVisible();
  expect(await englishTextInSystemFonts(page)).toEqual([]);
});

test("every page in Traditional Chinese draws its Han text in the system's CJK font and every other mark in Geist", async ({ page }) => {
  // Chromium picks a CJK face for lang="zh-TW" text; a digit, a Latin name or a mark of the interface (an arrow, a
  // check, a separator) in a Chinese sentence stays in Geist, never in a third typeface the system happens to have.
  await signIn(page, "maya@example.com");
  await chooseLanguage(page.context(), "zh-TW");
  const messages = getMessages("zh-TW");
  for (const path of ["/", "/courses", "/orders", "/events", "/settings"]) {
    await page.goto(path);
    await hydrated(page.getByRole("heading", { level: 1 }));
    await page.evaluate(() => document.fonts.ready);
    expect(await textInSystemFonts(page, "zh", isCjkFont), path).toEqual([]);
  }
  // What opens on the Settings page: the access's details and the account menu.
  await page.getByRole("main").locator("summary").filter({ hasText: "詳細資料" }).click();
  const account = accountNavigation(page);
  await account.getByRole("button", { name: "Maya Chen" }).click();
  await expect(account.getByRole("link", { name: messages.nav.settings })).toBeVisible();
  expect(await textInSystemFonts(page, "zh", isCjkFont)).toEqual([]);
});
