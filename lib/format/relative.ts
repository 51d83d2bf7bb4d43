import type { FormatLocale } from "@/lib/i18n/format-locale";
import { toDate } from "./datetime";
import { relativeTimeFormat } from "./intl-formatters";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const AVERAGE_MONTH = 30.436_875 * DAY;
const AVERAGE_YEAR = 365.2425 * DAY;

/**
 * "in 3 months", "2 weeks ago", "3 個月後": the distance from `now` to `target` in the largest unit that reads
 * naturally, via Intl.RelativeTimeFormat.
 */
export function formatRelativeTime(target: Date | string, now: Date, formatLocale: FormatLocale): string {
  const diff = toDate(target).getTime() - now.getTime();
  const abs = Math.abs(diff);
  const inUnit = (size: number, unit: Intl.RelativeTimeFormatUnit) => timeFrom(Math.round(diff / size), unit, formatLocale);
  if (abs < HOUR) return inUnit(MINUTE, "minute");
  if (abs < DAY) return inUnit(HOUR, "hour");
  if (abs < 14 * DAY) return inUnit(DAY, "day");
  if (abs < 60 * DAY) return inUnit(7 * DAY, "week");
  if (abs < AVERAGE_YEAR - AVERAGE_MONTH / 2) return inUnit(AVERAGE_MONTH, "month");
  return inUnit(AVERAGE_YEAR, "year");
}

/**
 * Intl.RelativeTimeFormat's words for `value` units from now ("in 3 minutes", "3 分鐘後"), with the space
 * after the number a no-break space: on a narrow phone the number never ends one line and its unit starts
 * the next.
 */
export function timeFrom(value: number, unit: Intl.RelativeTimeFormatUnit, locale: string): string {
  return relativeTimeFormat(locale, { numeric: "always" }).format(value, unit).replace(/(\d) /, "$1\u00a0");
}

/**
 * When something happened ("Signed in {time}"), against a page clock that reads the start of the minute
 * (lib/i18n/clock.ts): `justNow` for anything within that minute or after it, never "0 minutes ago" nor
 * "in 1 minute"; otherwise formatRelativeTime.
 */
export function formatTimeAgo(target: Date | string, now: Date, formatLocale: FormatLocale, justNow: string): string {
  const moment = toDate(target);
  return now.getTime() - moment.getTime() < MINUTE ? justNow : formatRelativeTime(moment, now, formatLocale);
}
