"use client";

import { flattenPages, usePagedAccountPage } from "@/lib/client/hooks";
import { useI18n } from "@/lib/i18n/provider";
import { PageHeader } from "@/components/ui/page-header";
import { PagedQueryBody } from "@/components/ui/paged-query-body";
import { OrderCard } from "./order-card";

/** The Orders page: every order, newest first as the site lists them, a page at a time. */
export function OrdersView() {
  const { messages } = useI18n();
  const query = usePagedAccountPage("orders");
  const orders = flattenPages(query.data?.pages);

  return (
    <div>
      <PageHeader title={messages.orders.title} />
      <PagedQueryBody
        query={query}
        items={orders}
        texts={{
          error: messages.errors.orders,
          empty: messages.orders.empty,
          emptyBody: messages.orders.emptyBody,
          showMore: messages.orders.showMore,
          loadingMore: messages.courses.loadingMore,
        }}
      >
        {(items) => (
          <ul className="flex flex-col gap-4">
            {items.map((order) => (
              <li key={order.id}>
                <OrderCard order={order} />
              </li>
            ))}
          </ul>
        )}
      </PagedQueryBody>
    </div>
  );
}
