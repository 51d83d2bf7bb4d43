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

  it("puts an order whose date the site left unreadable after every dated one", () => {
    const sorted = sortOrdersForDisplay([
      order("a-undated", "paid", "not a date"),
      order("new", "paid", "2026-11-01T00:00:00Z"),
      order("old", "paid", "2025-01-01T00:00:00Z"),
    ]);
    expect(sorted.map((o) => o.id)).toEqual(["new", "old", "a-undated"]);
  });

  it("orders orders placed at the same moment by id, whatever order the site sent", () => {
    const placed = "2026-11-01T00:00:00Z";
    for (const sent of [
      [order("b", "paid", placed), order("a", "paid", placed)],
      [order("a", "paid", placed), order("b", "paid", placed)],
    ]) {
      expect(sortOrdersForDisplay(sent).map((o) => o.id)).toEqual(["a", "b"]);
    }
  });
});
