import type { FormatLocale } from "@/lib/i18n/format-locale";
import { dateTimeFormat, withPlainSpaces } from "./intl-formatters";

/**
 * Options every zoned formatter takes: the format tag (the UI language, with the browser's English region:
 * en-US, en-GB or zh-TW) and the member's IANA time zone.
 */
export interface ZonedFormatOptions {
  formatLocale: FormatLocale;
  timeZone: string;
}

/** A calendar date without a time or a zone. `month` is 1..12. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const MS_PER_DAY = 86_400_000;

export function toDate(value: Date | string): Date {
  return typeof value === "string" ? new Date(value) : value;
}

/** The calendar date an instant falls on in `timeZone` (DST-safe: Intl does the zone arithmetic). */
export function zonedCalendarDate(instant: Date | string, timeZone: string): CalendarDate {
  const parts = dateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    calendar: "gregory",
    numberingSystem: "latn",
  }).formatToParts(toDate(instant));
  const read = (type: "year" | "month" | "day") => Number(parts.find((part) => part.type === type)?.value);
  return { year: read("year"), month: read("month"), day: read("day") };
}

/**
 * The calendar date written in an ISO 8601 timestamp, read as written (its own offset, no conversion).
 * All-day events use it so that "5 Dec" stays 5 Dec in every time zone.
 */
export function writtenCalendarDate(iso: string): CalendarDate {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!match) {
    const fallback = new Date(iso);
    return { year: fallback.getUTCFullYear(), month: fallback.getUTCMonth() + 1, day: fallback.getUTCDate() };
  }
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

/** Days since 1970-01-01 for a calendar date: differences between two are whole calendar days. */
export function dayNumber(date: CalendarDate): number {
  return Math.round(Date.UTC(date.year, date.month - 1, date.day) / MS_PER_DAY);
}

export function calendarDateFromDayNumber(days: number): CalendarDate {
  const date = new Date(days * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Whole calendar days from `from` to `to` as seen in `timeZone` (0 = same day, 1 = tomorrow, -1 = yesterday). */
export function calendarDaysBetween(from: Date | string, to: Date | string, timeZone: string): number {
  return dayNumber(zonedCalendarDate(to, timeZone)) - dayNumber(zonedCalendarDate(from, timeZone));
}

/** "12 Mar 2027" (en-GB), "Mar 12, 2027" (en-US): the date an instant falls on in the member's time zone. */
export function formatDate(instant: Date | string, { formatLocale, timeZone }: ZonedFormatOptions): string {
  return withPlainSpaces(
    dateTimeFormat(formatLocale, { day: "numeric", month: "short", year: "numeric", timeZone }).format(toDate(instant)),
  );
}

/**
 * The clock every time of day is written on, one per tag: 12-hour in en-US ("9:05 AM") and 繁體中文 ("上午9:05",
 * as Intl writes it), two-digit 24-hour in en-GB ("09:05", "00:43": Intl's en-GB alone writes "0:43").
 */
export function clockOf(formatLocale: FormatLocale): Intl.DateTimeFormatOptions {
  return formatLocale === "en-GB" ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } : { hour: "numeric", minute: "2-digit" };
}

/** "12 Mar 2027, 14:30" (en-GB), "Mar 12, 2027, 2:30 PM" (en-US): date and time in the member's time zone. */
export function formatDateTime(instant: Date | string, { formatLocale, timeZone }: ZonedFormatOptions): string {
  return withPlainSpaces(
    dateTimeFormat(formatLocale, { day: "numeric", month: "short", year: "numeric", ...clockOf(formatLocale), timeZone }).format(
      toDate(instant),
    ),
  );
}

/** "09:30" (en-GB), "9:30 AM" (en-US), "上午9:30" (zh-TW): the time of day in the member's time zone. */
export function formatTime(instant: Date | string | number, { formatLocale, timeZone }: ZonedFormatOptions): string {
  return withPlainSpaces(
    dateTimeFormat(formatLocale, { ...clockOf(formatLocale), timeZone }).format(typeof instant === "number" ? instant : toDate(instant)),
  );
}

/**
 * The UTC offset of `timeZone` at an instant, e.g. "GMT-04:00", or "GMT-4" in the short style (changes across
 * DST transitions).
 */
export function zoneOffsetAt(instant: Date | string, timeZone: string, style: "longOffset" | "shortOffset" = "longOffset"): string {
  const parts = dateTimeFormat("en-US", { timeZone, timeZoneName: style }).formatToParts(toDate(instant));
  return parts.find((part) => part.type === "timeZoneName")?.value ?? "GMT";
}

/** Minutes east of UTC from an offset such as "GMT-04:00", "GMT+05:30" or "GMT" (zoneOffsetAt). */
export function offsetMinutes(offset: string): number {
  const match = /^GMT([+-])(\d{2}):?(\d{2})$/.exec(offset);
  if (!match) return 0;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/**
 * The instant a wall-clock time of a calendar date shows in `timeZone` (19:00 on 10 Dec in Taipei is
 * 11:00 UTC). Around a change of offset it is read as RFC 5545 section 3.3.5 and Temporal's "compatible"
 * read it: a time shown twice (clocks going back) is the earlier one; a time never shown (clocks going
 * forward: 02:30 in New York on 8 March, midnight in Santiago on 6 September) takes the offset before
 * the gap, so it falls the length of the gap later (03:30; 01:00, that day's first instant).
 */
export function zonedInstant(date: CalendarDate, hour: number, minute: number, timeZone: string): Date {
  const asUtc = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  const readWith = (offset: number) => asUtc - offset * 60_000;
  const showsItWith = (offset: number) => offsetMinutes(zoneOffsetAt(new Date(readWith(offset)), timeZone)) === offset;
  // The offsets a day before and after: the same unless the offset changes in between (never twice in two days).
  const before = offsetMinutes(zoneOffsetAt(new Date(asUtc - MS_PER_DAY), timeZone));
  const after = offsetMinutes(zoneOffsetAt(new Date(asUtc + MS_PER_DAY), timeZone));
  if (showsItWith(before) || !showsItWith(after)) return new Date(readWith(before));
  return new Date(readWith(after));
}

/** `YYYY-MM-DD` for a calendar date, as used in `<time dateTime>`. */
export function isoCalendarDate(date: CalendarDate): string {
  const pad = (value: number, length = 2) => String(value).padStart(length, "0");
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}
