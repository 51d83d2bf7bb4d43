import "server-only";

import { cookies, headers } from "next/headers";
import { cache } from "react";

import {
  formatLocaleFor,
  LOCALE_COOKIE,
  negotiateEnglishFormat,
  negotiateLocale,
  timeZoneOfCookies,
  type FormatLocale,
  type Locale,
} from "@/lib/i18n";

/**
 * The member's language (cookie, then Accept-Language), the tag its dates and numbers are formatted in (for
 * English, the region Accept-Language prefers: en-US or en-GB) and time zone (cookie written by the browser).
 * Negotiated once per request: the layout, its metadata and the page's title all ask for it.
 */
export const getRequestLocale = cache(async (): Promise<{ locale: Locale; formatLocale: FormatLocale; timeZone: string }> => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const acceptLanguage = headerList.get("accept-language");
  const locale = negotiateLocale(acceptLanguage, cookieStore.get(LOCALE_COOKIE)?.value);
  return {
    locale,
    formatLocale: formatLocaleFor(locale, negotiateEnglishFormat(acceptLanguage)),
    timeZone: timeZoneOfCookies(cookieStore),
  };
});
