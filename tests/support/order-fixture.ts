import type { Order } from "@/lib/types/account";

/** A paid order in UI shape, named by `id` (its trade number too), placed and paid at `createdAt`, no items. */
export function paidOrder(id: string, createdAt: string): Order {
  return {
    id,
    tradeNo: id,
    state: "paid",
    currency: "TWD",
    amount: 100,
    refundedAmount: null,
    paidAt: createdAt,
    createdAt,
    paymentUrl: null,
    lineItems: [],
  };
}
