import { ORDERS_WORDS } from "@/lib/i18n/messages/orders";
import type { Locale } from "@/lib/i18n/locales";
import type { Order } from "@/lib/types/account";

import { humanize, type StatusTone, type StateDescription } from "./states";

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
  const states: Readonly<Record<string, string>> = ORDERS_WORDS[locale].state;
  return { text: states[order.state] ?? humanize(order.state), tone: ORDER_TONES[order.state] ?? "neutral" };
}

/** A line item's type in words ("Course", "Membership", …), humanised when unknown. */
export function describeItemType(itemType: string, locale: Locale): string {
  const types: Readonly<Record<string, string>> = ORDERS_WORDS[locale].itemType;
  return types[itemType] ?? humanize(itemType);
}
