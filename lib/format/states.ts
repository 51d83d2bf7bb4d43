import { getMessages } from "@/lib/i18n";
import type { Locale } from "@/lib/i18n/locales";

/** The colour family of a status badge; badges always carry words too. */
export type StatusTone = "neutral" | "success" | "warning" | "danger" | "muted";

export interface StateDescription {
  text: string;
  tone: StatusTone;
}

/** "manual_enrolled" → "Manual enrolled": a readable fallback for states the site introduced later. */
export function humanize(value: string): string {
  const spaced = value
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

const REGISTRATION_TONES: Record<string, StatusTone> = {
  enrolled: "neutral",
  checked_in: "success",
  no_show: "warning",
  cancelled: "danger",
};

/** A registration's state in words ("Registered", "Checked in", "Missed", "Cancelled"). */
export function describeRegistrationState(state: string, locale: Locale): StateDescription {
  const states: Readonly<Record<string, string>> = getMessages(locale).events.state;
  return { text: states[state] ?? humanize(state), tone: REGISTRATION_TONES[state] ?? "neutral" };
}
