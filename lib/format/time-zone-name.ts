import type { FormatLocale } from "@/lib/i18n/format-locale";

/**
 * A time zone by its name in the member's language, through Intl: "Pacific Time", "台北標準時間",
 * "Coordinated Universal Time". Never the raw IANA id ("Asia/Taipei"), which reads as code.
 */
export function describeTimeZone(timeZone: string, formatLocale: FormatLocale, at: Date = new Date()): string {
  const read = (style: "longGeneric" | "long") =>
    new Intl.DateTimeFormat(formatLocale, { timeZone, timeZoneName: style }).formatToParts(at).find((part) => part.type === "timeZoneName")
      ?.value;
  try {
    const generic = read("longGeneric");
    // Zones without a generic name (UTC) come back as an offset ("GMT+00:00"): the long name says more.
    if (generic && !/^(GMT|UTC)([+-]|$)/.test(generic)) return generic;
    return read("long") ?? generic ?? timeZone;
  } catch {
    return timeZone;
  }
}
