/**
 * The dashboard's interface font, Geist (the `geist` package's variable font), split in two faces so a
 * page downloads only what it shows (issue 26: on a phone, the 70 KB font was a quarter of a first
 * visit's bytes, and Lighthouse's LCP estimate carried all of it):
 *
 * - **Latin**: the characters of Western European text (the range Google Fonts calls "latin") and every
 *   other character the interface itself writes (its messages in both languages, marks such as ▶ and ∞
 *   in its components), preloaded with every page: about a third of the whole font.
 * - **Extended**: the whole font, declared for every other character Geist has (Latin Extended, Greek,
 *   Cyrillic, Vietnamese…), so a member called Łukasz or Наталья still sees their name in Geist. The
 *   browser downloads it only for a page that shows such a character (CSS `unicode-range`). It also holds
 *   the Latin glyphs, from which Next.js computes the metrics of the size-adjusted fallback both faces use
 *   while loading.
 *
 * Both are limited to the weights the interface uses (400 to 700: `font-normal` to `font-bold`) by
 * instancing the variable font's `wght` axis with HarfBuzz (subset-font); the glyphs are not changed.
 * `npm run fonts` writes the two files, `app/fonts/geist.ts` and the font's licence from here; tests/unit/ui/geist-faces.test.ts
 * checks they are what this module says.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import * as fontverter from "fontverter";
import * as harfbuzz from "harfbuzzjs";

const PROJECT_ROOT = path.join(import.meta.dirname, "..", "..");
const GEIST_PACKAGE = path.join(PROJECT_ROOT, "node_modules", "geist");
export const FONT_DIRECTORY = path.join(PROJECT_ROOT, "app", "fonts");
export const SOURCE_FONT = path.join(GEIST_PACKAGE, "dist", "fonts", "geist-sans", "Geist-Variable.ttf");
/** The font's licence (SIL Open Font License 1.1), which must travel with every copy of the font, modified ones included. */
export const SOURCE_LICENSE = path.join(GEIST_PACKAGE, "LICENSE.txt");
export const LICENSE_FILE = "LICENSE.txt";
export const LATIN_FILE = "geist-latin.woff2";
export const EXTENDED_FILE = "geist-extended.woff2";
export const DECLARATIONS_FILE = "geist.ts";

/** The weights the interface uses: Tailwind's font-normal (400) to font-bold (700). */
export const WEIGHT_RANGE = { min: 400, max: 700 } as const;

/** Google Fonts' "latin" range: ASCII, Latin-1, the general punctuation block and a few symbols. */
export const LATIN_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x00ff],
  [0x0131, 0x0131],
  [0x0152, 0x0153],
  [0x02bb, 0x02bc],
  [0x02c6, 0x02c6],
  [0x02da, 0x02da],
  [0x02dc, 0x02dc],
  [0x0304, 0x0304],
  [0x0308, 0x0308],
  [0x0329, 0x0329],
  [0x2000, 0x206f],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
  [0x2191, 0x2191],
  [0x2193, 0x2193],
  [0x2212, 0x2212],
  [0x2215, 0x2215],
  [0xfeff, 0xfeff],
  [0xfffd, 0xfffd],
];

export function isLatin(codePoint: number): boolean {
  return LATIN_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last);
}

/** Where the interface's own text is written: its messages, components, pages and styles. */
const INTERFACE_SOURCES = ["app", "components", "lib"];
const INTERFACE_SOURCE_FILE = /\.(tsx?|json|css)$/;

/** The paths of the files the interface's own text is written in, in `directories` (all of them by default). */
export function interfaceSourceFiles(directories: readonly string[] = INTERFACE_SOURCES): string[] {
  return directories.flatMap((directory) =>
    readdirSync(path.join(PROJECT_ROOT, directory), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && INTERFACE_SOURCE_FILE.test(entry.name))
      .map((entry) => path.join(entry.parentPath, entry.name)),
  );
}

/** The text of every file the interface's own text is written in. */
export function interfaceSourceTexts(): string[] {
  return interfaceSourceFiles().map((file) => readFileSync(file, "utf8"));
}

/** Every character beyond ASCII that the interface's source files hold (comments included: a few glyphs more). */
export function interfaceCharacters(): Set<number> {
  const characters = new Set<number>();
  for (const text of interfaceSourceTexts()) {
    for (const character of text) {
      const codePoint = character.codePointAt(0)!;
      if (codePoint > 0x7e) characters.add(codePoint);
    }
  }
  return characters;
}

export interface FontFacts {
  /** The characters the font maps to a glyph, ascending. */
  codePoints: number[];
  /** The `wght` axis, when the font is variable. */
  weight: { min: number; max: number } | undefined;
}

/** What a font file (TrueType or WOFF2) holds, read with HarfBuzz. */
export async function readFontFacts(file: string): Promise<FontFacts> {
  const sfnt = await fontverter.convert(readFileSync(file), "sfnt");
  const blob = new harfbuzz.Blob(new Uint8Array(sfnt));
  const face = new harfbuzz.Face(blob);
  const axis = face.getAxisInfos().wght;
  return {
    codePoints: Array.from(face.collectUnicodes()).sort((a, b) => a - b),
    weight: axis ? { min: axis.min, max: axis.max } : undefined,
  };
}

/** A CSS `unicode-range` value for these characters (ascending), consecutive ones joined into ranges. */
export function unicodeRange(codePoints: readonly number[]): string {
  const ranges: string[] = [];
  const hex = (codePoint: number) => codePoint.toString(16).toUpperCase().padStart(4, "0");
  for (let start = 0; start < codePoints.length;) {
    let end = start;
    while (end + 1 < codePoints.length && codePoints[end + 1] === codePoints[end]! + 1) end += 1;
    ranges.push(start === end ? `U+${hex(codePoints[start]!)}` : `U+${hex(codePoints[start]!)}-${hex(codePoints[end]!)}`);
    start = end + 1;
  }
  return ranges.join(", ");
}

/** The two faces' characters: the preloaded face's (Latin and the interface's own), and the rest of what Geist has. */
export function splitCharacters(
  sourceCodePoints: readonly number[],
  interfaceCodePoints: ReadonlySet<number>,
): { latin: number[]; extended: number[] } {
  const preloaded = (codePoint: number) => isLatin(codePoint) || interfaceCodePoints.has(codePoint);
  return {
    latin: sourceCodePoints.filter(preloaded),
    extended: sourceCodePoints.filter((codePoint) => !preloaded(codePoint)),
  };
}

/**
 * `app/fonts/geist.ts`: Next.js's font loader takes only literal options, so the ranges are written
 * into the file rather than imported.
 */
export function declarationsSource(latinRange: string, extendedRange: string): string {
  return `// Written by \`npm run fonts\` (scripts/fonts/geist-faces.ts); do not edit by hand.
/* eslint-disable max-len -- Next.js's font loader takes only literal strings: the ranges cannot be split. */
import localFont from "next/font/local";

/**
 * Geist for Latin text and the interface's own characters, preloaded with every page. While it loads,
 * text falls back to the extended face's fallback (size-adjusted to Geist's metrics).
 */
export const geistLatin = localFont({
  src: "./${LATIN_FILE}",
  weight: "${WEIGHT_RANGE.min} ${WEIGHT_RANGE.max}",
  variable: "--font-geist-latin",
  adjustFontFallback: false,
  declarations: [
    {
      prop: "unicode-range",
      value:
        "${latinRange}",
    },
  ],
});

/** Geist for every other character it has, downloaded only by a page that shows one. */
export const geistExtended = localFont({
  src: "./${EXTENDED_FILE}",
  weight: "${WEIGHT_RANGE.min} ${WEIGHT_RANGE.max}",
  variable: "--font-geist-extended",
  preload: false,
  declarations: [
    {
      prop: "unicode-range",
      value:
        "${extendedRange}",
    },
  ],
});
`;
}
