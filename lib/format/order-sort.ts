import type { Order } from "@/lib/types/account";

/** Orders as the member wants them: one awaiting payment first (something to do), then newest first (placed). */
export function sortOrdersForDisplay(orders: readonly Order[]): Order[] {
  const placedAt = (order: Order) => {
    const ms = new Date(order.createdAt).getTime();
    return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
  };
  return [...orders].sort(
    (a, b) => Number(b.state === "not_paid") - Number(a.state === "not_paid") || placedAt(b) - placedAt(a) || (a.id < b.id ? -1 : 1),
  );
}
