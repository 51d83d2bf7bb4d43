/** The languages the dashboard speaks. */
export const LOCALES = ["en", "zh-TW"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** The cookie the language switch writes; it wins over the browser's Accept-Language. */
export const LOCALE_COOKIE = "locale";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The query parameter with which the embedded panel tells the windows it opens (its sign-in, the Revoke
 * access confirmation) the language it shows: the panel's `locale` cookie lives in the site's partition,
 * out of reach of a top-level window, whose pages would otherwise speak the browser's language.
 */
export const POPUP_LOCALE_PARAM = "lang";

/** `path` (which may have a query already) asking for `locale` when there is one. */
export function popupPagePath(path: string, locale: Locale | null | undefined): string {
  if (!locale) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${POPUP_LOCALE_PARAM}=${encodeURIComponent(locale)}`;
}

/** The language a popup's address asks for (POPUP_LOCALE_PARAM), or null when it asks for none we speak. */
export function popupLocaleOf(params: URLSearchParams): Locale | null {
  const asked = params.get(POPUP_LOCALE_PARAM);
  return isLocale(asked) ? asked : null;
}

/**
 * The Accept-Language the dashboard sends where the site writes text the member reads (the MCP server's
 * tool texts): the member's language, then English, which every site is assumed to write.
 */
export function acceptLanguageFor(locale: Locale): string {
  return locale === "en" ? "en" : `${locale}, en;q=0.5`;
}

/**
 * The `ui_locales` the dashboard sends to the site (OpenID Connect Core 3.1.2.1, BCP 47 tags by preference,
 * space-separated): the member's language, then English. Each is written as the site writes it in its
 * `ui_locales_supported` when it lists a tag for it (`zh-Hant-TW`, `en-US`), since a site may compare tags
 * exactly; otherwise as the dashboard writes it.
 */
export function uiLocalesFor(locale: Locale, siteTags: readonly unknown[] = []): string {
  const spelledBySite = (wanted: Locale) =>
    siteTags.find((tag): tag is string => typeof tag === "string" && BCP47_TAG.test(tag) && localeOfTag(tag) === wanted) ?? wanted;
  return [...new Set([locale, "en" as const])].map(spelledBySite).join(" ");
}

/**
 * The `ui_locales` to send a site whose metadata (`ui_locales_supported`) is `siteLanguages`, for a member
 * reading `locale`: asked only of a site that lists the languages its pages speak (RFC 8414 section 2),
 * at sign-in and at sign-out alike; none without a list or a language.
 */
export function uiLocalesForSite(locale: Locale | undefined, siteLanguages: unknown): string | undefined {
  return locale && Array.isArray(siteLanguages) ? uiLocalesFor(locale, siteLanguages) : undefined;
}

/** A language tag's characters and length (RFC 5646 section 2.1): nothing else of the site's list is sent back to it. */
const BCP47_TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8}){0,6}$/;

/** Maps any language tag to one of ours, or null when we do not speak it. */
function localeOfTag(tag: string): Locale | null {
  const lower = tag.trim().toLowerCase();
  if (lower === "" || lower === "*") return null;
  const [language, ...rest] = lower.split("-");
  if (language === "en") return "en";
  if (language === "zh") {
    // Traditional Chinese: zh-TW, zh-HK, zh-MO, zh-Hant(-*). Simplified (zh-CN, zh-SG, zh-Hans) is not ours.
    return rest.some((part) => part === "hant" || part === "tw" || part === "hk" || part === "mo") ? "zh-TW" : null;
  }
  return null;
}

/** One language range of an Accept-Language header with its weight (RFC 9110 section 12.5.4). */
export interface LanguageRange {
  tag: string;
  q: number;
}

/**
 * The language ranges of an Accept-Language header, most wanted first: by q-value (RFC 9110 section 12.5.4),
 * ties in the order written; ranges with q=0 ("not acceptable") are left out.
 */
export function rankLanguageRanges(acceptLanguageHeader: string | null | undefined): LanguageRange[] {
  if (!acceptLanguageHeader) return [];
  return acceptLanguageHeader
    .split(",")
    .map((entry, index) => {
      const [tag = "", ...params] = entry.split(";");
      const qParam = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
      const q = qParam === undefined ? 1 : Number.parseFloat(qParam.slice(2));
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag, q }) => ({ tag, q }));
}

/** The member's language for a request the proxy or a route handler reads: its `locale` cookie, then its Accept-Language. */
export function localeOfRequest(request: { headers: Headers; cookies: { get(name: string): { value: string } | undefined } }): Locale {
  return negotiateLocale(request.headers.get("accept-language"), request.cookies.get(LOCALE_COOKIE)?.value);
}

/**
 * Chooses the language: a valid `locale` cookie wins; otherwise the highest-weighted language in the
 * Accept-Language header that we speak (RFC 9110 section 12.5.4 q-values); otherwise English.
 */
export function negotiateLocale(acceptLanguageHeader: string | null | undefined, cookieValue?: string | null): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  for (const entry of rankLanguageRanges(acceptLanguageHeader)) {
    const match = localeOfTag(entry.tag);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}
