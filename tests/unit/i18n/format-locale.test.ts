import { describe, expect, it } from "vitest";

import {
  DEFAULT_ENGLISH_FORMAT,
  englishFormatOfRegion,
  formatLocaleFor,
  isFormatLocale,
  languageOf,
  MAX_NEGOTIATED_HEADERS,
  negotiateEnglishFormat,
  negotiatedHeaderCount,
  negotiateLocale,
  rankLanguageRanges,
} from "@/lib/i18n";

describe("negotiateEnglishFormat", () => {
  it.each([
    ["en-US,en;q=0.9", "en-US"],
    ["en-GB,en;q=0.9", "en-GB"],
    ["en-GB,en-US;q=0.9,en;q=0.8", "en-GB"],
    ["en-US;q=0.5,en-GB;q=0.8", "en-GB"],
    ["en-GB;q=0.5,en-US;q=0.5", "en-GB"],
    ["en-US;q=0.5,en-GB;q=0.5", "en-US"],
    ["en-GB;q=0,en-US;q=0.1", "en-US"],
    ["zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7", "en-US"],
    ["zh-TW,en-GB;q=0.5", "en-GB"],
    ["en,en-US;q=0.5", "en-US"],
    ["EN-gb", "en-GB"],
    ["en-Latn-GB", "en-GB"],
    ["en-US-u-hc-h23", "en-US"],
  ] as const)("%s → %s", (header, expected) => {
    expect(negotiateEnglishFormat(header)).toBe(expected);
  });

  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["a bare en", "en"],
    ["English refused", "en-US;q=0,en-GB;q=0"],
    ["no English", "zh-TW,ja;q=0.8"],
    ["a wildcard", "*"],
    ["a region Intl has no English for", "en-XX"],
    ["malformed ranges", "en-, ;q=1, en-US-;q=0.8"],
  ])("falls back to the default (en-GB) for %s", (_, header) => {
    expect(DEFAULT_ENGLISH_FORMAT).toBe("en-GB");
    expect(negotiateEnglishFormat(header)).toBe("en-GB");
  });

  it("remembers each header value it negotiated, answers a long one without remembering it, and stays bounded", () => {
    const header = "en-CA,en;q=0.9,x-remembered";
    const before = negotiatedHeaderCount();
    expect(negotiateEnglishFormat(header)).toBe("en-US");
    expect(negotiatedHeaderCount()).toBe(before + 1);
    // Asked again, the header is not negotiated again: the same answer, nothing added.
    expect(negotiateEnglishFormat(header)).toBe("en-US");
    expect(negotiatedHeaderCount()).toBe(before + 1);
    const long = `en-US,${"zz;q=0.1,".repeat(100)}`;
    expect(negotiateEnglishFormat(long)).toBe("en-US");
    expect(negotiatedHeaderCount()).toBe(before + 1);
    for (let index = 0; index < MAX_NEGOTIATED_HEADERS * 2; index += 1) negotiateEnglishFormat(`en-AU,x-${index}`);
    expect(negotiatedHeaderCount()).toBeLessThanOrEqual(MAX_NEGOTIATED_HEADERS);
    expect(negotiateEnglishFormat(header)).toBe("en-US");
  });

  it("passes over an English range it cannot format to the next one", () => {
    expect(negotiateEnglishFormat("en-XX,en-US;q=0.5")).toBe("en-US");
    expect(negotiateEnglishFormat("en,en-BR;q=0.9,en-CA;q=0.8")).toBe("en-US");
  });

  it("writes other English regions like the nearer of the two, by whether the month or the day comes first", () => {
    for (const region of ["US", "CA", "PH", "PR", "GU"]) expect(englishFormatOfRegion(region)).toBe("en-US");
    for (const region of ["GB", "IE", "AU", "NZ", "IN", "ZA", "SG", "HK", "150", "001"])
      expect(englishFormatOfRegion(region)).toBe("en-GB");
    expect(englishFormatOfRegion("ca")).toBe("en-US");
    expect(englishFormatOfRegion("XX")).toBeNull();
    expect(negotiateEnglishFormat("en-AU,en;q=0.9")).toBe("en-GB");
    expect(negotiateEnglishFormat("en-CA,fr-CA;q=0.9")).toBe("en-US");
  });

  it("leaves the language to negotiateLocale and the cookie", () => {
    const header = "zh-TW,en-US;q=0.8";
    expect(negotiateLocale(header)).toBe("zh-TW");
    expect(negotiateEnglishFormat(header)).toBe("en-US");
    expect(formatLocaleFor(negotiateLocale(header, "en"), negotiateEnglishFormat(header))).toBe("en-US");
    expect(formatLocaleFor(negotiateLocale("en-US", "zh-TW"), negotiateEnglishFormat("en-US"))).toBe("zh-TW");
  });
});

describe("format tags", () => {
  it("belong to one language each", () => {
    expect(languageOf("en-US")).toBe("en");
    expect(languageOf("en-GB")).toBe("en");
    expect(languageOf("zh-TW")).toBe("zh-TW");
    expect(formatLocaleFor("en", "en-GB")).toBe("en-GB");
    expect(formatLocaleFor("zh-TW", "en-US")).toBe("zh-TW");
    expect(["en-US", "en-GB", "zh-TW"].every(isFormatLocale)).toBe(true);
    expect(["en", "en-AU", "zh", null].some(isFormatLocale)).toBe(false);
  });
});

describe("rankLanguageRanges", () => {
  it("orders by q-value, keeps the written order among equals and drops q=0", () => {
    expect(rankLanguageRanges("fr;q=0.5, en-GB;q=0.9, de, en-US;q=0.9, ja;q=0").map((range) => range.tag)).toEqual([
      "de",
      "en-GB",
      "en-US",
      "fr",
    ]);
    expect(rankLanguageRanges(null)).toEqual([]);
  });
});
