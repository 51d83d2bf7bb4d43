import { languageOf, type FormatLocale } from "@/lib/i18n/format-locale";
import type { Locale } from "@/lib/i18n/locales";
import type { DashboardEvent, EventRegistration } from "@/lib/types/account";
import {
  calendarDateFromDayNumber,
  clockOf,
  dayNumber,
  isoCalendarDate,
  toDate,
  writtenCalendarDate,
  zonedCalendarDate,
  zonedInstant,
  zoneOffsetAt,
  type CalendarDate,
  type ZonedFormatOptions,
} from "./datetime";
import { dateTimeFormat, withPlainSpaces } from "./intl-formatters";

/** The dates an all-day event covers: `start` inclusive, `endExclusive` exclusive (as in iCalendar). */
export interface AllDaySpan {
  start: CalendarDate;
  endExclusive: CalendarDate;
}

/**
 * The dates an all-day event covers, read as written in its timestamps. An end at midnight after the
 * start is taken as exclusive (iCalendar style); any other end names the last day itself.
 */
export function allDaySpan(event: Pick<DashboardEvent, "startTime" | "endTime">): AllDaySpan {
  const start = writtenCalendarDate(event.startTime);
  const startDay = dayNumber(start);
  if (!event.endTime) return { start, endExclusive: calendarDateFromDayNumber(startDay + 1) };
  const endDay = dayNumber(writtenCalendarDate(event.endTime));
  const endsAtMidnight = /T00:00(?::00(?:\.0+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/.test(event.endTime);
  const exclusive = endsAtMidnight && endDay > startDay ? endDay : Math.max(endDay, startDay) + 1;
  return { start, endExclusive: calendarDateFromDayNumber(exclusive) };
}

/**
 * The instant an event is over: its end, else its start; for an all-day event, the end of its last day in
 * the member's time zone. Its dates are shown as written ("5 Dec" in every time zone) and go into the
 * calendar file as dates (./ics.ts), which a calendar shows on the member's own 5 Dec: the event stays
 * upcoming through that day, not until midnight in the site's offset.
 */
export function eventEndInstant(event: DashboardEvent, timeZone: string): Date {
  if (event.isAllDay) return zonedInstant(allDaySpan(event).endExclusive, 0, 0, timeZone);
  return toDate(event.endTime ?? event.startTime);
}

/** An event is upcoming until it is over, so one in progress still counts. */
export function isUpcomingEvent(event: DashboardEvent, now: Date, timeZone: string): boolean {
  return eventEndInstant(event, timeZone).getTime() > now.getTime();
}

export function isCancelledRegistration(registration: Pick<EventRegistration, "state">): boolean {
  return registration.state === "cancelled";
}

function byStart(a: EventRegistration, b: EventRegistration): number {
  return toDate(a.event.startTime).getTime() - toDate(b.event.startTime).getTime();
}

/** Splits registrations into upcoming (soonest first) and past (most recent first). */
export function splitRegistrations(
  registrations: readonly EventRegistration[],
  now: Date,
  timeZone: string,
): { upcoming: EventRegistration[]; past: EventRegistration[] } {
  const upcoming = registrations.filter((registration) => isUpcomingEvent(registration.event, now, timeZone)).sort(byStart);
  const past = registrations.filter((registration) => !isUpcomingEvent(registration.event, now, timeZone)).sort((a, b) => byStart(b, a));
  return { upcoming, past };
}

/** The upcoming, non-cancelled registrations, soonest first, at most `limit`. */
export function pickUpcomingRegistrations(
  registrations: readonly EventRegistration[],
  now: Date,
  timeZone: string,
  limit: number,
): EventRegistration[] {
  return splitRegistrations(registrations, now, timeZone)
    .upcoming.filter((registration) => !isCancelledRegistration(registration))
    .slice(0, limit);
}

/** When an event happens, in words, and the machine-readable value for `<time dateTime>`. */
export interface EventWhen {
  text: string;
  dateTime: string;
}

const DATE_PART: Intl.DateTimeFormatOptions = { weekday: "short", day: "numeric", month: "short", year: "numeric" };
/** A time of day with the zone's name, on the tag's one clock (clockOf). */
const timePart = (formatLocale: FormatLocale): Intl.DateTimeFormatOptions => ({ ...clockOf(formatLocale), timeZoneName: "short" });
/**
 * What Intl itself puts between a date and a time in each language ("Sat, 5 Dec 2026, 19:00" in en-GB,
 * "Sat, Dec 5, 2026, 7:00 PM" in en-US, "2026年12月5日週六 下午7:00").
 */
const DATE_TIME_SEPARATOR: Record<Locale, string> = { en: ", ", "zh-TW": " " };

/**
 * Intl's parts joined, with the zone's name written the way the language writes a note after a time.
 * CLDR's zh-TW patterns put the zone in square brackets ("晚上7:00至9:00 [GMT+8]"), which reads as markup
 * or a fault to a student; Taiwan's typography writes such a note in full-width parentheses, right after
 * the time ("晚上7:00至9:00（GMT+8）"). CLDR's zh-TW names most zones by their offset already, but a few by
 * an English abbreviation ("[EST]", "[PDT]") that a student reading Chinese cannot read: those are written
 * as the offset at `instant` ("（GMT-5）"). English patterns have no brackets, so their text is Intl's as it is.
 */
function joinedWithZoneAsWritten(parts: readonly Intl.DateTimeFormatPart[], instant: Date, timeZone: string): string {
  const texts = parts.map((part) => part.value);
  parts.forEach((part, index) => {
    if (part.type !== "timeZoneName") return;
    const before = texts[index - 1];
    const after = texts[index + 1];
    if (before === undefined || after === undefined || !/\[$/.test(before) || !after.startsWith("]")) return;
    texts[index - 1] = before.replace(/\s*\[$/, "");
    texts[index] = `（${/^(GMT|UTC)/.test(part.value) ? part.value : zoneOffsetAt(instant, timeZone, "shortOffset")}）`;
    texts[index + 1] = after.slice(1);
  });
  return texts.join("");
}

/**
 * When an event happens in the member's language (and English region) and time zone:
 * all-day events as dates only ("Sat, 5 Dec 2026" or "Sat, 5 Dec – Sun, 6 Dec 2026"), never shifted by
 * the zone; timed events with the zone's name ("Sun, 1 Nov 2026, 19:00–21:00 GMT+8" in en-GB,
 * "Sun, Nov 1, 2026, 7:00 – 9:00 PM GMT+8" in en-US, "2026年11月1日週日 晚上7:00至9:00（GMT+8）" in zh-TW). When
 * a DST change falls inside the event, each end carries its own offset ("00:00 GMT−4 – 03:00 GMT−5").
 */
export function formatEventWhen(event: DashboardEvent, options: ZonedFormatOptions): EventWhen {
  const when = eventWhen(event, options);
  return { ...when, text: withUnbrokenOffsets(withPlainSpaces(when.text)) };
}

/**
 * A zone's negative offset with the minus sign (GMT−5, U+2212) instead of Intl's hyphen: a browser may end
 * a line after a hyphen (Chromium wrote "（GMT-" and "5）" on two lines at 390 px), never inside "GMT−5"
 * (UAX 14: no break before or after a numeric prefix). Screen readers read it as "minus".
 */
function withUnbrokenOffsets(text: string): string {
  return text.replace(/\b(GMT|UTC)-(?=\d)/g, "$1\u2212");
}

function eventWhen(event: DashboardEvent, { formatLocale, timeZone }: ZonedFormatOptions): EventWhen {
  if (event.isAllDay) {
    const span = allDaySpan(event);
    const format = dateTimeFormat(formatLocale, { ...DATE_PART, timeZone: "UTC" });
    const startDate = new Date(Date.UTC(span.start.year, span.start.month - 1, span.start.day));
    const lastDay = calendarDateFromDayNumber(dayNumber(span.endExclusive) - 1);
    const singleDay = dayNumber(lastDay) === dayNumber(span.start);
    const text = singleDay
      ? format.format(startDate)
      : format.formatRange(startDate, new Date(Date.UTC(lastDay.year, lastDay.month - 1, lastDay.day)));
    return { text, dateTime: isoCalendarDate(span.start) };
  }
  const start = toDate(event.startTime);
  const full = dateTimeFormat(formatLocale, { ...DATE_PART, ...timePart(formatLocale), timeZone });
  const fullText = (instant: Date) => joinedWithZoneAsWritten(full.formatToParts(instant), instant, timeZone);
  if (!event.endTime) return { text: fullText(start), dateTime: start.toISOString() };
  const end = toDate(event.endTime);
  if (end.getTime() <= start.getTime()) return { text: fullText(start), dateTime: start.toISOString() };
  const sameDay = dayNumber(zonedCalendarDate(start, timeZone)) === dayNumber(zonedCalendarDate(end, timeZone));
  const times = dateTimeFormat(formatLocale, { ...timePart(formatLocale), timeZone });
  if (sameDay && zoneOffsetAt(start, timeZone) === zoneOffsetAt(end, timeZone)) {
    // One date pattern per list: the date as an all-day event writes it, then the time range. (Intl's own
    // formatRange switches zh-TW to "2026/12/5（週六）" while the dates alone read "2026年12月5日週六".)
    const date = dateTimeFormat(formatLocale, { ...DATE_PART, timeZone }).format(start);
    const timeRange = joinedWithZoneAsWritten(times.formatRangeToParts(start, end), start, timeZone);
    return {
      text: `${date}${DATE_TIME_SEPARATOR[languageOf(formatLocale)]}${timeRange}`,
      dateTime: start.toISOString(),
    };
  }
  const endText = sameDay ? joinedWithZoneAsWritten(times.formatToParts(end), end, timeZone) : fullText(end);
  return { text: `${fullText(start)} – ${endText}`, dateTime: start.toISOString() };
}
