import { describe, expect, it } from "vitest";

import { sortOrdersForDisplay } from "@/lib/format/order-sort";
import type { Order } from "@/lib/types/account";

function order(id: string, state: string, createdAt: string): Order {
  return {
    id,
    tradeNo: id,
    state,
    currency: "TWD",
    amount: 1,
    refundedAmount: null,
    paidAt: null,
    createdAt,
    paymentUrl: null,
    lineItems: [],
  };
}

describe("sortOrdersForDisplay", () => {
  it("puts an order awaiting payment first, then the newest first, whatever order the site sent", () => {
    const sorted = sortOrdersForDisplay([
      order("old", "paid", "2025-01-01T00:00:00Z"),
      order("awaiting", "not_paid", "2025-06-01T00:00:00Z"),
      order("new", "refunded", "2026-11-01T00:00:00Z"),
      order("middle", "paid", "2026-01-01T00:00:00Z"),
    ]);
    expect(sorted.map((o) => o.id)).toEqual(["awaiting", "new", "middle", "old"]);
  });
});
