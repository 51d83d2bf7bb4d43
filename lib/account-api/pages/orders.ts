import "server-only";

import { z } from "zod";

import type { Order, OrdersPage } from "@/lib/types/account";

import { runAccountOperation } from "../client";
import { AMOUNT, CONNECTION_PAGING_FIELDS, DATE_TIME, IDENTIFIER, rawConnection } from "../fragments";
import { connectionOperation } from "../operation";
import type { AccountPageRequest } from "../page";
import { reshapePage } from "../reshape";

/** Orders per request; the Orders page reads one page per call ("Show more" asks for the next). */
export const ORDERS_PAGE_SIZE = 20;

/** One page of the member's orders. */
export const ORDERS_DOCUMENT = /* GraphQL */ `
  query DashboardOrders($first: Int!, $after: String) {
    viewer {
      orders(first: $first, after: $after) {
        ${CONNECTION_PAGING_FIELDS}
        nodes {
          id
          tradeNo
          state
          currency
          amount
          refundedAmount
          paidAt
          createdAt
          paymentUrl
          lineItems {
            name
            amount
            itemType
          }
        }
      }
    }
  }
`;

/** The form of an `Order` as {@link ORDERS_DOCUMENT} selects it; fields beyond the seed's may be absent. */
const RAW_ORDER = z.object({
  id: IDENTIFIER,
  tradeNo: z.string(),
  state: z.string(),
  currency: z.string(),
  amount: AMOUNT,
  refundedAmount: AMOUNT.nullish(),
  paidAt: DATE_TIME.nullish(),
  createdAt: DATE_TIME,
  paymentUrl: z.string().nullish(),
  lineItems: z.array(z.object({ name: z.string(), amount: AMOUNT, itemType: z.string() })).optional(),
});

export type RawOrder = z.infer<typeof RAW_ORDER>;

const ORDERS_ANSWER = z.object({ viewer: z.object({ orders: rawConnection(RAW_ORDER) }) });

export type OrdersResult = z.infer<typeof ORDERS_ANSWER>;

export const ORDERS_OPERATION = connectionOperation(ORDERS_DOCUMENT, ORDERS_ANSWER);

/**
 * A link the site gives, kept only when it is a page of the site itself (https, or http on a loopback site as
 * in the demo): a payment page elsewhere is not one the dashboard sends a member to. A path is read on the site.
 */
function sitePageUrlOrNull(value: string | null | undefined, siteUrl: string): string | null {
  if (typeof value !== "string") return null;
  try {
    const site = new URL(siteUrl);
    const url = new URL(value, site);
    return url.origin === site.origin ? url.toString() : null;
  } catch {
    return null;
  }
}

function reshapeOrder(raw: RawOrder, siteUrl: string): Order {
  return {
    id: raw.id,
    tradeNo: raw.tradeNo,
    state: raw.state,
    currency: raw.currency.toUpperCase(),
    amount: raw.amount,
    refundedAmount: typeof raw.refundedAmount === "number" && raw.refundedAmount > 0 ? raw.refundedAmount : null,
    paidAt: raw.paidAt ?? null,
    createdAt: raw.createdAt,
    paymentUrl: raw.state === "not_paid" ? sitePageUrlOrNull(raw.paymentUrl, siteUrl) : null,
    lineItems: (raw.lineItems ?? []).map((item) => ({ name: item.name, amount: item.amount, itemType: item.itemType })),
  };
}

export function reshapeOrders(data: OrdersResult, siteUrl: string): OrdersPage {
  return reshapePage(data.viewer.orders, (raw) => reshapeOrder(raw, siteUrl));
}

/** The Orders page: one page of orders per call. */
export async function loadOrders({ accessToken, after, siteLinks }: AccountPageRequest): Promise<OrdersPage> {
  return reshapeOrders(await runAccountOperation(accessToken, ORDERS_OPERATION, { first: ORDERS_PAGE_SIZE, after }), siteLinks.siteUrl);
}
