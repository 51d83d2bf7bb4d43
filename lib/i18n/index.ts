import { timeFrom } from "@/lib/format/relative";
import { en } from "./messages/en";
import type { Messages } from "./messages/types";
import { zhTW } from "./messages/zh-TW";
import type { Locale } from "./locales";

export * from "./locales";
export * from "./time-zone";
export * from "./format-locale";
export type { Messages } from "./messages/types";

const dictionaries: Record<Locale, Messages> = { en, "zh-TW": zhTW };

export function getMessages(locale: Locale): Messages {
  return dictionaries[locale];
}

/** Fills `{name}` placeholders; a placeholder without a value stays as written. */
export function interpolate(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    const value = values[key];
    return value === undefined ? whole : String(value);
  });
}

/**
 * The site as a sentence names it: its own name (in 「」 in Chinese), or the words for "the site" when it
 * gives none or the dashboard could not learn it, which take no quotation marks.
 */
export function siteCalled(messages: Messages, name: string | null): string {
  return name ? interpolate(messages.signedOutPage.namedSite, { name }) : messages.signedOutPage.theSite;
}

/**
 * The words of a link to `count` courses on the Courses page ("See all 3 courses"): for one course,
 * "See it on the Courses page" (never "See all 1"). Not for 0: with nothing to see, the link says "All courses".
 */
export function seeAllCourses(messages: Messages, count: number): string {
  return count === 1 ? messages.courseProgress.seeAllOne : interpolate(messages.courseProgress.seeAll, { count });
}

/**
 * A wait as the member's language says a time from now ("in 30 seconds", "3 分鐘後"), in its largest
 * whole unit: seconds under a minute and a half, then minutes, then hours.
 */
export function inTimeFromNow(seconds: number, locale: Locale): string {
  if (seconds < 90) return timeFrom(seconds, "second", locale);
  if (seconds < 90 * 60) return timeFrom(Math.ceil(seconds / 60), "minute", locale);
  return timeFrom(Math.ceil(seconds / 3600), "hour", locale);
}

type ScopeKey = Exclude<keyof Messages["scopes"], "unknown">;

function isKnownScope(scope: string, messages: Messages): scope is ScopeKey {
  return scope !== "unknown" && Object.hasOwn(messages.scopes, scope);
}

/** A granted OAuth scope in plain words, for the Settings page. */
export function describeScope(scope: string, messages: Messages): string {
  return isKnownScope(scope, messages) ? messages.scopes[scope] : interpolate(messages.scopes.unknown, { scope });
}
