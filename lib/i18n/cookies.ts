import { isInFrame } from "@/lib/client/embedding";

import { LOCALE_COOKIE, type Locale } from "./locales";
import { TIME_ZONE_COOKIE } from "./time-zone";

const ONE_YEAR_SECONDS = 31_536_000;

/**
 * Inside the site's page (the companion panel) the frame is a third party: the browser keeps only a cookie
 * marked SameSite=None and Secure there, in the site's partition (Partitioned, as the panel's session cookie
 * is: lib/session/session.ts). A SameSite=Lax one would be dropped without a word.
 */
function writeCookie(name: string, value: string): void {
  const context = isInFrame() ? "SameSite=None; Secure; Partitioned" : "SameSite=Lax";
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; ${context}`;
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

/** The language and time-zone cookies as the browser holds them now (absent ones left out). */
export function readPreferenceCookies(): Record<string, string> {
  const wanted = new Set([LOCALE_COOKIE, TIME_ZONE_COOKIE]);
  const found: Record<string, string> = {};
  for (const pair of document.cookie.split(";")) {
    const [name = "", ...rest] = pair.trim().split("=");
    if (!wanted.has(name)) continue;
    try {
      found[name] = decodeURIComponent(rest.join("="));
    } catch {
      // A value the browser holds that is not ours: not kept.
    }
  }
  return found;
}

/**
 * Writes back the language and time-zone cookies read before Sign out or Revoke access: their answers
 * carry `Clear-Site-Data: "cookies"`, which drops every cookie of the origin, preferences included.
 * Neither cookie identifies the member, so keeping them leaks nothing of the ended session.
 */
export function restorePreferenceCookies(saved: Record<string, string>): void {
  for (const [name, value] of Object.entries(saved)) writeCookie(name, value);
}

/** Runs `action` (a request whose answer clears the site's cookies) and keeps the member's language and time zone across it. */
export async function keepingPreferenceCookies<T>(action: () => Promise<T>): Promise<T> {
  const saved = readPreferenceCookies();
  try {
    return await action();
  } finally {
    restorePreferenceCookies(saved);
  }
}
