import { createEvent, type DateArray, type EventAttributes } from "ics";
import type { EventRegistration } from "@/lib/types/account";
import { allDaySpan } from "./events";
import { toDate, type CalendarDate } from "./datetime";

export interface BuildIcsOptions {
  /** The DTSTAMP (when the file was made); the ics package uses the current time when omitted. */
  now?: Date;
}

/** The ics package takes its DTSTAMP as `timestamp`, which its types do not declare. */
type EventAttributesWithStamp = EventAttributes & { timestamp?: number };

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
    uid: `event-${event.id}@companion-dashboard`,
    title: event.title,
    productId: "companion-dashboard/ics",
    status: registration.state === "cancelled" ? "CANCELLED" : "CONFIRMED",
    ...(event.location ? { location: event.location } : {}),
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

  const result = createEvent(attributes);
  if (result.error || result.value === null) {
    throw new Error(`Could not build the calendar file: ${result.error?.message ?? "no output"}`);
  }
  return result.value;
}

/** A safe file name for the event's .ics: "<slug>.ics", from its title, else from its id. */
export function icsFileName(registration: EventRegistration): string {
  const slug = registration.event.title
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
  const fallback = `event-${registration.event.id}`.toLowerCase().replace(/[^a-z0-9-]+/g, "-");
  return `${slug || fallback}.ics`;
}
