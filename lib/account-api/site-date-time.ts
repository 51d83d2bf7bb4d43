import "server-only";

import { getConfig } from "@/lib/config";
import {
  calendarDateFromDayNumber,
  dayNumber,
  isoCalendarDate,
  offsetMinutes,
  zonedInstant,
  zoneOffsetAt,
  type CalendarDate,
} from "@/lib/format/datetime";
import { logEvent } from "@/lib/log/logger";
import { processWide } from "@/lib/server/process-wide";

/**
 * A date and time with no offset and no `Z` (`2026-12-10T20:00:00`, or with a space for the `T`): a wall-clock
 * time whose zone the value does not say. JavaScript reads such a string in the local zone of whatever reads it.
 */
const WITHOUT_OFFSET = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?$/;

/**
 * A date and time with an offset or `Z`, in the parts that its written form may vary in: a space for the `T`,
 * `+0800` without its colon (PHP's `DATE_ISO8601`, common on sites), a fraction of a second of other than three
 * digits (`.123456`). ECMAScript promises every browser's `Date.parse` reads only `YYYY-MM-DDTHH:mm:ss.sss+08:00`
 * and its shortenings; Node reads the others, but the page's scripts read the same strings in the member's
 * browser, and Safari has long refused `+0800` and the space.
 */
const WITH_OFFSET = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})$/;

const warned = processWide("site-date-time", () => ({ once: false }));

/**
 * The site's `DateTime` as the dashboard passes it on, to its pages on the server and in the browser alike
 * (undefined: not a date and time, which ./fragments.ts refuses). The schema we assume (DESIGN.md) says ISO
 * 8601 with an offset, and a value that has one (or `Z`) is passed on as written, in the form every browser
 * reads; a date alone, which JavaScript reads as UTC everywhere, as it came. A site that sends a date and time
 * without an offset means a wall-clock time in some zone: read there (`SITE_TIME_ZONE`, or UTC with one
 * `site_date_without_offset` warning per process when it is not set), and passed on as that same wall-clock
 * time with the zone's offset at it (`2026-12-24T00:00:00.000+08:00`). Passed on as it came, the server (in
 * its zone) and the member's browser (in theirs) would each read another instant: the page would show one
 * time, then another once its scripts ran. Written in UTC instead, an all-day event would move to the day
 * before, since its dates are read as written (lib/format/events.ts).
 */
export function siteDateTime(value: string): string | undefined {
  const parts = WITHOUT_OFFSET.exec(value);
  if (!parts) return rfc3339Form(value);
  const wallClock = wallClockOf(parts);
  if (!wallClock) return undefined;
  const zone = getConfig().siteTimeZone;
  if (!zone && !warned.once) {
    warned.once = true;
    logEvent("site_date_without_offset", { readAs: "UTC", setting: "SITE_TIME_ZONE" }, "warn");
  }
  return withZoneOffset(wallClock, zone ?? "UTC");
}

/** A wall-clock time as written: its calendar date, hour and minute, and the milliseconds past that minute. */
interface WallClock {
  date: CalendarDate;
  hour: number;
  minute: number;
  milliseconds: number;
}

/**
 * The wall-clock time written in `parts`, or undefined for a day the calendar lacks (`2026-02-30`, which
 * `Date.parse` rolls over into March) or a time of day past 23:59:59. ISO 8601's `24:00`, the end of a day,
 * is the next day's midnight.
 */
function wallClockOf(parts: RegExpExecArray): WallClock | undefined {
  const [, year = "", month = "", day = "", hour = "", minute = "", second = "00", fraction = ""] = parts;
  const days = dayNumber({ year: Number(year), month: Number(month), day: Number(day) });
  if (isoCalendarDate(calendarDateFromDayNumber(days)) !== `${year}-${month}-${day}`) return undefined;
  const endOfDay = hour === "24" && minute === "00" && second === "00" && !/[1-9]/.test(fraction);
  if (endOfDay) return { date: calendarDateFromDayNumber(days + 1), hour: 0, minute: 0, milliseconds: 0 };
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const milliseconds = Number(second) * 1000 + Number(fraction.slice(1, 4).padEnd(3, "0"));
  return { date: calendarDateFromDayNumber(days), hour: Number(hour), minute: Number(minute), milliseconds };
}

/** `wallClock` read in `timeZone`, written with that zone's offset at it: `2026-12-24T00:00:00.000+08:00`. */
function withZoneOffset(wallClock: WallClock, timeZone: string): string {
  const instant = zonedInstant(wallClock.date, wallClock.hour, wallClock.minute, timeZone).getTime() + wallClock.milliseconds;
  const offset = zoneOffsetAt(new Date(instant), timeZone);
  const minutesEast = offsetMinutes(offset);
  const written = new Date(instant + minutesEast * 60_000).toISOString().slice(0, 23);
  return `${written}${minutesEast === 0 ? "Z" : offset.slice("GMT".length)}`;
}

/** `value` in the form every browser reads (`+08:00`, a `T`, milliseconds in three digits); anything else as it came. */
function rfc3339Form(value: string): string {
  const parts = WITH_OFFSET.exec(value);
  if (!parts) return value;
  const [, date = "", hoursAndMinutes = "", seconds, fraction, offset = ""] = parts;
  const secondsPart = seconds === undefined ? "" : `:${seconds}${fraction === undefined ? "" : `.${fraction.slice(0, 3).padEnd(3, "0")}`}`;
  return `${date}T${hoursAndMinutes}${secondsPart}${offset.length === 5 ? `${offset.slice(0, 3)}:${offset.slice(3)}` : offset}`;
}

/** Tests only: the next date without an offset warns again. */
export function resetSiteDateTimeWarningForTests(): void {
  warned.once = false;
}
