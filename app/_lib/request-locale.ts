import "server-only";

import { cookies, headers } from "next/headers";

import { LOCALE_COOKIE, negotiateLocale, resolveTimeZone, TIME_ZONE_COOKIE, type Locale } from "@/lib/i18n";

/** The member's language (cookie, then Accept-Language) and time zone (cookie written by the browser). */
export async function getRequestLocale(): Promise<{ locale: Locale; timeZone: string }> {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  return {
    locale: negotiateLocale(headerList.get("accept-language"), cookieStore.get(LOCALE_COOKIE)?.value),
    timeZone: resolveTimeZone(cookieStore.get(TIME_ZONE_COOKIE)?.value),
  };
}
