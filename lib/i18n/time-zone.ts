import { boundedMemory } from "@/lib/format/bounded-memory";
import { dateTimeFormat } from "@/lib/format/intl-formatters";

// Apart from the languages (locales.ts): the crash page negotiates the language, and every module it
// imports is copied into its own chunk on every route (lib/i18n/messages/crash.ts).

/** The cookie holding the browser's IANA time zone, so the server renders times the way the browser will. */
export const TIME_ZONE_COOKIE = "tz";
export const DEFAULT_TIME_ZONE = "UTC";

/** Past this many distinct cookie values the memory of checked zones starts over: bounded whatever arrives. */
export const MAX_CHECKED_TIME_ZONES = 500;

/** Each cookie value already checked: its zone as Intl names it, or null when Intl refused it. */
const checkedTimeZones = boundedMemory<string | null>(MAX_CHECKED_TIME_ZONES);

/**
 * Returns `value` when it is an IANA time zone this runtime knows, otherwise the fallback. Every data request
 * and page view of a browser that wrote the time-zone cookie asks. The first ask of a value checks it with
 * the zone's shared formatter; later asks are a Map lookup: under load, asking the formatter's
 * `resolvedOptions()` again cost about 20 µs of a data request's CPU (docs/performance.md).
 */
export function resolveTimeZone(value: string | null | undefined, fallback: string = DEFAULT_TIME_ZONE): string {
  if (!value) return fallback;
  return checkedTimeZones.get(value, intlTimeZoneOf) ?? fallback;
}

function intlTimeZoneOf(value: string): string | null {
  try {
    return dateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** How many cookie values are remembered as checked (for tests). */
export function checkedTimeZoneCount(): number {
  return checkedTimeZones.size;
}

/** The member's time zone, from a request's cookies (the one the browser writes), else UTC: for pages and data routes alike. */
export function timeZoneOfCookies(cookies: { get(name: string): { value: string } | undefined }): string {
  return resolveTimeZone(cookies.get(TIME_ZONE_COOKIE)?.value);
}
