import { expect, test, type Page } from "./test";

import { getMessages, LOCALES } from "../../lib/i18n";

import { chooseLanguage, signIn } from "./support";

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
