import { readFileSync } from "node:fs";
import path from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

import { getMessages, LOCALES } from "@/lib/i18n";
import {
  declarationsSource,
  DECLARATIONS_FILE,
  EXTENDED_FILE,
  FONT_DIRECTORY,
  interfaceCharacters,
  interfaceSourceFiles,
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

/** The text a source file can put on a page: its JSX text and string and template literals (comments aside). */
function literalTexts(file: string): string[] {
  const sourceFile = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) || ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** The components' and pages' source files. */
const componentFiles = interfaceSourceFiles(["app", "components"]).filter((file) => /\.tsx?$/.test(file));

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

  it("draw every character of a page in English: none is left to the system's fonts", () => {
    // A character Geist lacks makes the browser search the system's fonts during the page's first layout
    // (on Debian, ＋ loaded a CJK font of many megabytes: with ＋ and ▾, the first layout of Overview took a
    // median 65 ms against 32 ms without), and draws it in another typeface. The components draw such marks
    // instead (components/ui/mark.tsx).
    const geist = new Set(source.codePoints);
    // The Mac's Command key is named by the symbol printed on it, in one rare message (copying refused).
    const keyNames = new Set(["⌘"]);
    const drawn = [...texts(getMessages("en")), ...componentFiles.flatMap(literalTexts)];
    const missing = new Set(
      drawn
        .flatMap((text) => [...text])
        .filter((character) => !/[\p{Cc}\p{Default_Ignorable_Code_Point}]/u.test(character))
        .filter((character) => !geist.has(character.codePointAt(0)!) && !keyNames.has(character)),
    );
    expect([...missing]).toEqual([]);
    expect(componentFiles.length).toBeGreaterThan(50);
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
