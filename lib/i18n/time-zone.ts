import { dateTimeFormat } from "@/lib/format/intl-formatters";

// Apart from the languages (locales.ts): the crash page negotiates the language, and every module it
// imports is copied into its own chunk on every route (lib/i18n/messages/crash.ts).

/** The cookie holding the browser's IANA time zone, so the server renders times the way the browser will. */
export const TIME_ZONE_COOKIE = "tz";
export const DEFAULT_TIME_ZONE = "UTC";

/**
 * Returns `value` when it is an IANA time zone this runtime knows, otherwise the fallback. Every page view
 * of a browser that wrote the time-zone cookie asks: the check uses the shared formatter of that zone, a
 * Map lookup after its first request instead of a new Intl.DateTimeFormat (about 45 µs) each time.
 */
export function resolveTimeZone(value: string | null | undefined, fallback: string = DEFAULT_TIME_ZONE): string {
  if (!value) return fallback;
  try {
    return dateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return fallback;
  }
}

/** The member's time zone, from a request's cookies (the one the browser writes), else UTC: for pages and data routes alike. */
export function timeZoneOfCookies(cookies: { get(name: string): { value: string } | undefined }): string {
  return resolveTimeZone(cookies.get(TIME_ZONE_COOKIE)?.value);
}
