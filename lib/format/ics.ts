import { createEvent, type DateArray, type EventAttributes } from "ics";
import { getMessages, interpolate, languageOf, type FormatLocale } from "@/lib/i18n";
import type { CourseEnrollment, EventRegistration } from "@/lib/types/account";
import { accessReminderTiming } from "./access-reminder";
import { allDaySpan } from "./events";
import { calendarDateFromDayNumber, dayNumber, formatDate, toDate, zonedCalendarDate, type CalendarDate } from "./datetime";

export interface BuildIcsOptions {
  /** The DTSTAMP (when the file was made); the ics package uses the current time when omitted. */
  now?: Date;
}

/** The ics package takes its DTSTAMP as `timestamp`, which its types do not declare. */
type EventAttributesWithStamp = EventAttributes & { timestamp?: number };

/**
 * A TEXT value as RFC 5545 section 3.3.11 allows it: no control characters, line breaks only as `\n`.
 * The package escapes `\n` and `\r\n` but lets a lone CR through, which a parser that ends lines at CR
 * would read as the start of a property of the site's text (`SUMMARY:x` CR `ATTENDEE:…`).
 */
function calendarText(value: string): string {
  return value.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}

function toDateArray(date: CalendarDate): DateArray {
  return [date.year, date.month, date.day];
}

/**
 * The text of a VCALENDAR with one VEVENT for a registration, made by the `ics` package. All-day events
 * become DATE values (DTSTART;VALUE=DATE, exclusive DTEND); timed events UTC date-times. The UID is
 * stable per event, so adding it twice updates the calendar entry instead of duplicating it.
 *
 * @throws Error when the package rejects the event (it validates every field).
 */
export function buildIcs(registration: EventRegistration, options: BuildIcsOptions = {}): string {
  const { event } = registration;
  const common = {
    uid: calendarText(`event-${event.id}@companion-dashboard`),
    title: calendarText(event.title),
    productId: "companion-dashboard/ics",
    status: registration.state === "cancelled" ? "CANCELLED" : "CONFIRMED",
    ...(event.location ? { location: calendarText(event.location) } : {}),
    ...(event.url ? { url: event.url } : {}),
    ...(options.now ? { timestamp: options.now.getTime() } : {}),
  } satisfies Partial<EventAttributesWithStamp>;

  let attributes: EventAttributesWithStamp;
  if (event.isAllDay) {
    const span = allDaySpan(event);
    attributes = { ...common, start: toDateArray(span.start), end: toDateArray(span.endExclusive) };
  } else {
    const start = toDate(event.startTime).getTime();
    const end = event.endTime ? toDate(event.endTime).getTime() : null;
    attributes =
      end !== null && end > start
        ? { ...common, start, startInputType: "utc", startOutputType: "utc", end, endInputType: "utc", endOutputType: "utc" }
        : { ...common, start, startInputType: "utc", startOutputType: "utc", duration: { hours: 1 } };
  }

  return createIcs(attributes);
}

function createIcs(attributes: EventAttributesWithStamp): string {
  const result = createEvent(attributes);
  if (result.error || result.value === null) {
    throw new Error(`Could not build the calendar file: ${result.error?.message ?? "no output"}`);
  }
  return result.value;
}

/** Lower-case ASCII words joined by dashes, at most 60 characters ("" when nothing Latin is left). */
function fileSlug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
}

/** A safe file name for the event's .ics: "<slug>.ics", from its title, else from its id. */
export function icsFileName(registration: EventRegistration): string {
  const fallback = `event-${registration.event.id}`.toLowerCase().replace(/[^a-z0-9-]+/g, "-");
  return `${fileSlug(registration.event.title) || fallback}.ics`;
}

export interface AccessReminderOptions {
  /** The language and English region the reminder's text is written in ("Access ends Nov 24, 2026" in en-US). */
  formatLocale: FormatLocale;
  /** The member's IANA time zone: "the day before" is a day on their calendar. */
  timeZone: string;
  now: Date;
}

/** How long the timed reminder for access ending tomorrow lasts in the calendar. */
const TIMED_REMINDER_MINUTES = 15;

/**
 * A VCALENDAR with one VEVENT reminding that a course's access ends (when: accessReminderTiming,
 * lib/format/access-reminder.ts), with the course's link. Two days or more ahead, an all-day event the
 * day before with a 09:00 alarm that day; for access ending tomorrow, a 15-minute event at 19:00 this
 * evening or 09:00 tomorrow (the member's zone, written in UTC) whose alarm goes off as it starts. The
 * UID is stable per course and expiry, so adding it twice updates the entry.
 *
 * @throws Error for a course without an end to its access, one no reminder can come in time for, or when
 * the package rejects the event.
 */
export function buildAccessReminderIcs(course: CourseEnrollment, options: AccessReminderOptions): string {
  if (course.access.kind !== "until") throw new Error("A course with lifetime access needs no reminder.");
  const messages = getMessages(languageOf(options.formatLocale)).courses;
  const date = formatDate(course.access.expiresAt, options);
  const title = calendarText(interpolate(messages.reminderTitle, { course: course.name, date }));
  const timing = accessReminderTiming(course.access.expiresAt, options);
  if (!timing) throw new Error("Access ends too soon for a reminder to come in time.");
  const common = {
    uid: `access-${fileSlug(course.slug) || "course"}-${dayNumber(zonedCalendarDate(course.access.expiresAt, "UTC"))}@companion-dashboard`,
    title,
    description: calendarText(interpolate(messages.reminderBody, { course: course.name, date })),
    productId: "companion-dashboard/ics",
    status: "CONFIRMED",
    busyStatus: "FREE",
    timestamp: options.now.getTime(),
    ...(course.courseUrl ? { url: course.courseUrl } : {}),
  } satisfies Partial<EventAttributesWithStamp>;
  const attributes: EventAttributesWithStamp =
    timing.kind === "day-before"
      ? {
          ...common,
          start: toDateArray(timing.date),
          end: toDateArray(calendarDateFromDayNumber(dayNumber(timing.date) + 1)),
          alarms: [{ action: "display", description: title, trigger: { hours: 9, minutes: 0, before: false } }],
        }
      : {
          ...common,
          start: timing.instant.getTime(),
          startInputType: "utc",
          startOutputType: "utc",
          end: timing.instant.getTime() + TIMED_REMINDER_MINUTES * 60_000,
          endInputType: "utc",
          endOutputType: "utc",
          // An absolute trigger (UTC, RFC 5545 3.8.6.3): the package writes a zero duration as "-PT", which is no duration.
          alarms: [{ action: "display", description: title, trigger: timing.instant.getTime() }],
        };
  return createIcs(attributes);
}

/** "access-ends-<course slug>.ics". */
export function accessReminderFileName(course: CourseEnrollment): string {
  return `access-ends-${fileSlug(course.slug) || "course"}.ics`;
}
