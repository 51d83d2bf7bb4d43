import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { getMessages, LOCALES } from "@/lib/i18n";
import {
  declarationsSource,
  DECLARATIONS_FILE,
  EXTENDED_FILE,
  FONT_DIRECTORY,
  interfaceCharacters,
  interfaceSourceTexts,
  LATIN_FILE,
  LICENSE_FILE,
  readFontFacts,
  SOURCE_FONT,
  SOURCE_LICENSE,
  splitCharacters,
  unicodeRange,
  WEIGHT_RANGE,
} from "@/scripts/fonts/geist-faces";

const source = await readFontFacts(SOURCE_FONT);
const latinFace = await readFontFacts(path.join(FONT_DIRECTORY, LATIN_FILE));
const extendedFace = await readFontFacts(path.join(FONT_DIRECTORY, EXTENDED_FILE));
const faces = splitCharacters(source.codePoints, interfaceCharacters());

type Tree = { readonly [key: string]: string | Tree };
const texts = (tree: Tree): string[] => Object.values(tree).flatMap((value) => (typeof value === "string" ? [value] : texts(value)));

describe("the interface font's two faces (app/fonts, written by `npm run fonts`)", () => {
  it("are declared as the generator writes them from the package's font and the interface's characters", () => {
    // Fails when the interface gains a character or `geist` changes without `npm run fonts`.
    expect(readFileSync(path.join(FONT_DIRECTORY, DECLARATIONS_FILE), "utf8")).toBe(
      declarationsSource(unicodeRange(faces.latin), unicodeRange(faces.extended)),
    );
  });

  it("the preloaded face holds exactly its characters, the extended one all of Geist's, nothing lost", () => {
    expect(latinFace.codePoints).toEqual(faces.latin);
    expect(extendedFace.codePoints).toEqual(source.codePoints);
    expect(new Set([...faces.latin, ...faces.extended]).size).toBe(source.codePoints.length);
  });

  it("every character of the messages that Geist has is in the preloaded face: no page of ours downloads the other", () => {
    const geist = new Set(source.codePoints);
    const preloaded = new Set(latinFace.codePoints);
    const missing = LOCALES.flatMap((locale) => texts(getMessages(locale) as unknown as Tree))
      .flatMap((text) => [...text])
      .map((character) => character.codePointAt(0)!)
      .filter((codePoint) => geist.has(codePoint) && !preloaded.has(codePoint));
    expect(missing.map((codePoint) => String.fromCodePoint(codePoint))).toEqual([]);
    for (const mark of ["▶", "∞", "·", "…"]) expect(preloaded.has(mark.codePointAt(0)!)).toBe(true);
  });

  it("travel with the font's licence, as the SIL Open Font License requires of every copy", () => {
    expect(readFileSync(path.join(FONT_DIRECTORY, LICENSE_FILE), "utf8")).toBe(readFileSync(SOURCE_LICENSE, "utf8"));
  });

  it("both faces span every weight the interface asks for", () => {
    expect(latinFace.weight).toEqual(WEIGHT_RANGE);
    expect(extendedFace.weight).toEqual(WEIGHT_RANGE);
    const tailwindWeights: Record<string, number> = {
      thin: 100,
      extralight: 200,
      light: 300,
      normal: 400,
      medium: 500,
      semibold: 600,
      bold: 700,
      extrabold: 800,
      black: 900,
    };
    const used = new Set<number>();
    for (const text of interfaceSourceTexts()) {
      for (const match of text.matchAll(/font-weight:\s*(\d+)/g)) used.add(Number(match[1]));
      for (const match of text.matchAll(/\bfont-(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)\b/g)) {
        used.add(tailwindWeights[match[1]!]!);
      }
    }
    expect([...used].filter((weight) => weight < WEIGHT_RANGE.min || weight > WEIGHT_RANGE.max)).toEqual([]);
    expect(used.size).toBeGreaterThan(1);
  });
});
