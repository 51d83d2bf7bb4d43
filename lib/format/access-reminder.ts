import { calendarDateFromDayNumber, dayNumber, toDate, zonedCalendarDate, zonedInstant, type CalendarDate } from "./datetime";

/**
 * When "Add a reminder" reminds, in the member's time zone:
 * - `day-before`: access ends in two days or more: an all-day event the day before it ends, with an alarm
 *   at 09:00 that day;
 * - `at`: access ends tomorrow: the first of this evening at 19:00 and tomorrow at 09:00 that is at least
 *   15 minutes away and leaves at least an hour before access ends (a reminder must come in time to
 *   watch, and never with an alarm that has already passed).
 * Access that ends today, or tomorrow too early for either, gets no reminder: the course's action is the
 * way forward then.
 */
export type AccessReminderTiming = { kind: "day-before"; date: CalendarDate } | { kind: "at"; instant: Date };

/** The local times (hour, minute) a reminder for access ending tomorrow may fall on: this evening, then tomorrow morning. */
export const TOMORROW_REMINDER_TIMES = [
  { dayOffset: 0, hour: 19, minute: 0 },
  { dayOffset: 1, hour: 9, minute: 0 },
] as const;
/** A reminder comes at least this long from now, so its alarm can still go off after the file is added. */
export const REMINDER_MIN_LEAD_MS = 15 * 60_000;
/** A reminder leaves at least this long before access ends. */
export const REMINDER_MIN_BEFORE_END_MS = 60 * 60_000;

export function accessReminderTiming(expiresAt: string, options: { timeZone: string; now: Date }): AccessReminderTiming | null {
  const { timeZone, now } = options;
  const end = toDate(expiresAt);
  if (end.getTime() <= now.getTime()) return null;
  const today = dayNumber(zonedCalendarDate(now, timeZone));
  const lastDay = dayNumber(zonedCalendarDate(end, timeZone));
  if (lastDay - today >= 2) return { kind: "day-before", date: calendarDateFromDayNumber(lastDay - 1) };
  if (lastDay - today !== 1) return null;
  for (const { dayOffset, hour, minute } of TOMORROW_REMINDER_TIMES) {
    const instant = zonedInstant(calendarDateFromDayNumber(today + dayOffset), hour, minute, timeZone);
    if (instant.getTime() - now.getTime() >= REMINDER_MIN_LEAD_MS && end.getTime() - instant.getTime() >= REMINDER_MIN_BEFORE_END_MS) {
      return { kind: "at", instant };
    }
  }
  return null;
}
