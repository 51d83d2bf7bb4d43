import { getMessages, interpolate, languageOf } from "@/lib/i18n";
import type { CourseAccess } from "@/lib/types/account";
import { calendarDaysBetween, formatDate, toDate, type ZonedFormatOptions } from "./datetime";
import { accessReminderTiming } from "./access-reminder";
import { formatRelativeTime } from "./relative";

/**
 * Access ending within this many days counts as "ending soon": a warning, the overview's list, the
 * Courses page's "Ending soon" choice and "Add a reminder".
 */
export const ENDING_SOON_DAYS = 30;
const ENDING_SOON_MS = ENDING_SOON_DAYS * 86_400_000;

/** The colour family of an access state; the text always says the same thing in words. */
export type AccessTone = "lifetime" | "ok" | "warning" | "ended";

export interface AccessDescription {
  tone: AccessTone;
  /** The state in words, e.g. "Access ends in 3 days". */
  text: string;
  /** Pieces of `text` a line should not break inside: the date and the time from now ("in 3 months"). */
  keepTogether: readonly string[];
}

export interface AccessFormatOptions extends ZonedFormatOptions {
  now: Date;
}

/** True when access has ended at `now` (the expiry instant itself counts as ended). */
export function hasAccessEnded(access: CourseAccess, now: Date): boolean {
  return access.kind === "until" && toDate(access.expiresAt).getTime() <= now.getTime();
}

/** True when access has not ended yet but ends within {@link ENDING_SOON_DAYS} days of `now`. */
export function isAccessEndingSoon(access: CourseAccess, now: Date): boolean {
  if (access.kind !== "until") return false;
  const remaining = toDate(access.expiresAt).getTime() - now.getTime();
  return remaining > 0 && remaining <= ENDING_SOON_MS;
}

/**
 * The access state in words and its tone:
 * "Lifetime access"; "Access until 12 Mar 2027 (in 3 months)" ("Mar 12, 2027" in en-US); "Access ends today" / "tomorrow" /
 * "in 3 days" (warning, within 30 days); "Access ended on 2 Nov 2026". Days count calendar days in the
 * member's time zone, so an expiry at 23:00 tonight says "today" and one at 01:00 tomorrow "tomorrow".
 */
export function describeAccess(access: CourseAccess, options: AccessFormatOptions): AccessDescription {
  const messages = getMessages(languageOf(options.formatLocale));
  if (access.kind === "lifetime") return { tone: "lifetime", text: messages.access.lifetime, keepTogether: [] };
  const date = formatDate(access.expiresAt, options);
  if (hasAccessEnded(access, options.now)) {
    return { tone: "ended", text: interpolate(messages.access.ended, { date }), keepTogether: [date] };
  }
  if (isAccessEndingSoon(access, options.now)) {
    const days = Math.max(0, calendarDaysBetween(options.now, access.expiresAt, options.timeZone));
    const text =
      days === 0
        ? messages.access.endsToday
        : days === 1
          ? messages.access.endsTomorrow
          : interpolate(messages.access.endsInDays, { count: days });
    return { tone: "warning", text, keepTogether: [] };
  }
  const relative = formatRelativeTime(access.expiresAt, options.now, options.formatLocale);
  return { tone: "ok", text: interpolate(messages.access.until, { date, relative }), keepTogether: [date, relative] };
}

/**
 * Whether "Add a reminder" can still help: access ends within 30 days and a reminder can still come in
 * time, in the member's zone (accessReminderTiming: the day before, or for access ending tomorrow this
 * evening or tomorrow morning; never with an alarm that has passed). Otherwise the course's action is offered alone.
 */
export function canRemindBeforeAccessEnds(access: CourseAccess, now: Date, timeZone: string): boolean {
  if (!isAccessEndingSoon(access, now) || access.kind !== "until") return false;
  return accessReminderTiming(access.expiresAt, { timeZone, now }) !== null;
}
