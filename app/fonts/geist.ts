// Written by `npm run fonts` (scripts/fonts/geist-faces.ts); do not edit by hand.
/* eslint-disable max-len -- Next.js's font loader takes only literal strings: the ranges cannot be split. */
import localFont from "next/font/local";

/**
 * Geist for Latin text and the interface's own characters, preloaded with every page. While it loads,
 * text falls back to the extended face's fallback (size-adjusted to Geist's metrics).
 */
export const geistLatin = localFont({
  src: "./geist-latin.woff2",
  weight: "400 700",
  variable: "--font-geist-latin",
  adjustFontFallback: false,
  declarations: [
    {
      prop: "unicode-range",
      value:
        "U+0020-007E, U+00A0-00AC, U+00AE-00FF, U+0131, U+0152-0153, U+02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+2013-2014, U+2018-201A, U+201C-201E, U+2020-2022, U+2026, U+2028-2029, U+2030, U+2032-2033, U+2039-203A, U+2044, U+20AC, U+2122, U+2191-2193, U+2212, U+221E, U+25B6",
    },
  ],
});

/** Geist for every other character it has, downloaded only by a page that shows one. */
export const geistExtended = localFont({
  src: "./geist-extended.woff2",
  weight: "400 700",
  variable: "--font-geist-extended",
  preload: false,
  declarations: [
    {
      prop: "unicode-range",
      value:
        "U+0100-0113, U+0116-012B, U+012E-0130, U+0132-0137, U+0139-013E, U+0141-0148, U+014A-014D, U+0150-0151, U+0154-017E, U+018F, U+0192, U+01A0-01A1, U+01AF-01B0, U+01CD-01CE, U+01E4-01E9, U+0218-021B, U+0237, U+0259, U+02B9, U+02C7-02C8, U+02D8-02D9, U+02DB, U+02DD, U+0300-0303, U+0306-0307, U+0309-030C, U+0312, U+031B, U+0323, U+0326-0328, U+0335-0338, U+039B, U+03A9, U+03BB-03BC, U+03C0, U+0400-045F, U+0462-0463, U+046A-046B, U+0472-0475, U+0490-0493, U+0496-0497, U+049A-049B, U+04A2-04A3, U+04AE-04B3, U+04B6-04B7, U+04BA-04BB, U+04C0, U+04CF, U+04D8-04D9, U+04E2-04E3, U+04E8-04E9, U+04EE-04EF, U+0E3F, U+1E20-1E21, U+1E80-1E85, U+1E9E, U+1EA0-1EF9, U+2070, U+2074-2079, U+2080-2089, U+20AA, U+20B1, U+20B4, U+20B9, U+20BD, U+2116-2117, U+2126, U+2153-2155, U+215B-215E, U+2190, U+2194-2199, U+219D, U+21A9-21AA, U+21B0-21B1, U+21B3-21B5, U+21E4-21E5, U+21E7, U+2202, U+2206, U+220F, U+2211, U+221A, U+222B, U+2236, U+2248, U+2260, U+2264-2265, U+2460-2468, U+24EA, U+24FF, U+25B2-25B3, U+25B7, U+25BC-25BD, U+25C0-25C1, U+25CA-25CC, U+25CF, U+2639-263A, U+2776-277E, U+3003, U+301C, U+A78B-A78C, U+F8FF, U+FB01-FB02",
    },
  ],
});
