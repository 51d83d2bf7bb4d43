import { LOCALE_COOKIE, TIME_ZONE_COOKIE, type Locale } from "./locales";

const ONE_YEAR_SECONDS = 31_536_000;

function writeCookie(name: string, value: string): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
}

/** Remembers the member's language choice (read on the server by `negotiateLocale`) and updates `<html lang>`. */
export function persistLocale(locale: Locale): void {
  writeCookie(LOCALE_COOKIE, locale);
  document.documentElement.lang = locale;
}

/** Remembers the browser's time zone so the next server render formats times the way the browser does. */
export function persistTimeZone(timeZone: string): void {
  writeCookie(TIME_ZONE_COOKIE, timeZone);
}
