import { boundedMemory } from "@/lib/format/bounded-memory";

import { rankLanguageRanges, type Locale } from "./locales";

/**
 * The English regions the dashboard formats dates, times and numbers in: "Nov 24, 2026, 2:02 PM" (en-US)
 * and "24 Nov 2026, 14:02" (en-GB). Every other English region is written like the nearer of the two
 * (see {@link englishFormatOfRegion}): Intl's own formats for the others differ in ways that break the
 * dashboard's rules ("USD 12.50" instead of "US$12.50" in en-AU, "1 234,50" in en-ZA) and change between
 * ICU versions, while the server and the browser must write the same string.
 */
export const ENGLISH_FORMATS = ["en-US", "en-GB"] as const;
export type EnglishFormat = (typeof ENGLISH_FORMATS)[number];

/**
 * English when the browser names no English region (a bare "en", or no English at all): day first, so
 * "4 Nov 2026" cannot be read as 11 April, and 24-hour times; the dashboard's English format before the
 * region was negotiated.
 */
export const DEFAULT_ENGLISH_FORMAT: EnglishFormat = "en-GB";

/**
 * The BCP 47 tag handed to every Intl formatter: the language (chosen by the `locale` cookie, then
 * Accept-Language) with, for English, the region negotiated from Accept-Language. 繁體中文 is always zh-TW.
 */
export type FormatLocale = EnglishFormat | "zh-TW";

export function isFormatLocale(value: unknown): value is FormatLocale {
  return value === "zh-TW" || (ENGLISH_FORMATS as readonly unknown[]).includes(value);
}

/** The UI language a format tag belongs to: en-US and en-GB are English. */
export function languageOf(formatLocale: FormatLocale): Locale {
  return formatLocale === "zh-TW" ? "zh-TW" : "en";
}

/** The format tag for a language: the negotiated English region in English, zh-TW in 繁體中文. */
export function formatLocaleFor(locale: Locale, englishFormat: EnglishFormat): FormatLocale {
  return locale === "en" ? englishFormat : "zh-TW";
}

/** Regions already classified; the key space is bounded by the syntax of a region (2 letters or 3 digits). */
const formatOfRegion = new Map<string, EnglishFormat | null>();
const SAMPLE_DAY = new Date(Date.UTC(2026, 10, 24));

/**
 * en-US for an English region that writes the month before the day (US, CA, PH, the US territories),
 * en-GB for one that writes the day first (GB, IE, AU, NZ, IN, ZA, 150 "Europe", …), as CLDR says through
 * Intl. Null when Intl has no English formats for the region (en-BR, en-XX): such a tag names no usable
 * convention, so negotiation moves on to the next one.
 */
export function englishFormatOfRegion(region: string): EnglishFormat | null {
  const key = region.toUpperCase();
  const known = formatOfRegion.get(key);
  if (known !== undefined) return known;
  let result: EnglishFormat | null = null;
  try {
    const tag = `en-${key}`;
    const format = new Intl.DateTimeFormat(tag, { day: "numeric", month: "short", timeZone: "UTC" });
    if (format.resolvedOptions().locale === tag) {
      const order = format.formatToParts(SAMPLE_DAY).map((part) => part.type);
      result = order.indexOf("month") < order.indexOf("day") ? "en-US" : "en-GB";
    }
  } catch {
    result = null;
  }
  formatOfRegion.set(key, result);
  return result;
}

/** The region of an English language tag ("GB" for en-GB and en-Latn-GB), or null for another language or none. */
function englishRegionOf(tag: string): string | null {
  try {
    const parsed = new Intl.Locale(tag);
    return parsed.language === "en" ? (parsed.region ?? null) : null;
  } catch {
    // "*" and malformed ranges name no region.
    return null;
  }
}

/** Past this many distinct Accept-Language values the memory of negotiated formats starts over. */
export const MAX_NEGOTIATED_HEADERS = 500;

/** Each Accept-Language value already negotiated (a browser sends the same one with every request). */
const negotiatedFormats = boundedMemory<EnglishFormat>(MAX_NEGOTIATED_HEADERS);

/**
 * How English is written for this browser: the highest-weighted English range of Accept-Language that names a
 * region Intl can format (RFC 9110 section 12.5.4 q-values), mapped by {@link englishFormatOfRegion}; a bare
 * "en" names no region and is passed over. Otherwise {@link DEFAULT_ENGLISH_FORMAT}. Independent of the
 * language: a browser asking for zh-TW first and en-US second gets en-US formats when the member picks English.
 * Every page view asks; the first ask of a header value parses each range with `Intl.Locale`, about 20 µs of a
 * tab click's CPU under load (docs/performance.md), later asks are a Map lookup.
 */
export function negotiateEnglishFormat(acceptLanguageHeader: string | null | undefined): EnglishFormat {
  return negotiatedFormats.get(acceptLanguageHeader ?? "", englishFormatOfHeader);
}

function englishFormatOfHeader(acceptLanguageHeader: string): EnglishFormat {
  for (const { tag } of rankLanguageRanges(acceptLanguageHeader)) {
    const region = englishRegionOf(tag);
    const format = region === null ? null : englishFormatOfRegion(region);
    if (format) return format;
  }
  return DEFAULT_ENGLISH_FORMAT;
}

/** How many Accept-Language values are remembered as negotiated (for tests). */
export function negotiatedHeaderCount(): number {
  return negotiatedFormats.size;
}
