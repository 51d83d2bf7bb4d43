import { getMessages } from "@/lib/i18n";
import type { Locale } from "@/lib/i18n/locales";
import type { Order } from "@/lib/types/account";

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

const ORDER_TONES: Record<string, StatusTone> = {
  paid: "success",
  manual_enrolled: "success",
  not_paid: "warning",
  refunded: "muted",
  failed: "danger",
  expired: "muted",
};

/** An order's state in words ("Paid", "Awaiting payment", "Refunded", …) with its tone. */
export function describeOrderState(order: Pick<Order, "state">, locale: Locale): StateDescription {
  const states: Readonly<Record<string, string>> = getMessages(locale).orders.state;
  return { text: states[order.state] ?? humanize(order.state), tone: ORDER_TONES[order.state] ?? "neutral" };
}

/** A line item's type in words ("Course", "Membership", …), humanised when unknown. */
export function describeItemType(itemType: string, locale: Locale): string {
  const types: Readonly<Record<string, string>> = getMessages(locale).orders.itemType;
  return types[itemType] ?? humanize(itemType);
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
