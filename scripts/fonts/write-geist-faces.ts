/**
 * `npm run fonts`: writes the dashboard's two Geist faces and their declarations into app/fonts from the
 * `geist` package's variable font (scripts/fonts/geist-faces.ts says why and what). Run it after
 * updating `geist`, and commit what it writes.
 */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import subsetFont from "subset-font";

import {
  declarationsSource,
  DECLARATIONS_FILE,
  EXTENDED_FILE,
  FONT_DIRECTORY,
  interfaceCharacters,
  LATIN_FILE,
  LICENSE_FILE,
  readFontFacts,
  SOURCE_FONT,
  SOURCE_LICENSE,
  splitCharacters,
  unicodeRange,
  WEIGHT_RANGE,
} from "./geist-faces";

const source = readFileSync(SOURCE_FONT);
const { latin, extended } = splitCharacters((await readFontFacts(SOURCE_FONT)).codePoints, interfaceCharacters());
const instance = { targetFormat: "woff2", variationAxes: { wght: WEIGHT_RANGE } } as const;

const latinFace = await subsetFont(source, String.fromCodePoint(...latin), instance);
const extendedFace = await subsetFont(source, String.fromCodePoint(...latin, ...extended), instance);
writeFileSync(path.join(FONT_DIRECTORY, LATIN_FILE), latinFace);
writeFileSync(path.join(FONT_DIRECTORY, EXTENDED_FILE), extendedFace);
copyFileSync(SOURCE_LICENSE, path.join(FONT_DIRECTORY, LICENSE_FILE));
writeFileSync(path.join(FONT_DIRECTORY, DECLARATIONS_FILE), declarationsSource(unicodeRange(latin), unicodeRange(extended)));
console.info(
  `${LATIN_FILE}: ${latin.length} characters, ${latinFace.length} bytes; ` +
    `${EXTENDED_FILE}: ${latin.length + extended.length} characters, ${extendedFace.length} bytes ` +
    `(the package's own WOFF2 of the whole font: ${readFileSync(SOURCE_FONT.replace(/\.ttf$/, ".woff2")).length} bytes)`,
);
