"use client";

import { flattenPages, usePagedAccountPage } from "@/lib/client/hooks";
import { ORDERS_WORDS } from "@/lib/i18n/messages/orders";
import { useI18n, useWords } from "@/lib/i18n/provider";
import { PageHeader } from "@/components/ui/page-header";
import { PagedQueryBody } from "@/components/ui/paged-query-body";
import { SiteLink } from "@/components/layout/site-link";
import { sortOrdersForDisplay } from "@/lib/format/order-sort";
import { OrderCard } from "./order-card";

/** The Orders page: the loaded orders, one awaiting payment first, then newest first; a page at a time. */
export function OrdersView() {
  const { messages } = useI18n();
  const words = useWords(ORDERS_WORDS);
  const query = usePagedAccountPage("orders");
  const received = flattenPages(query.data?.pages, (order) => order.id);
  const orders = sortOrdersForDisplay(received);

  return (
    <div>
      <PageHeader title={messages.orders.title} />
      <PagedQueryBody
        query={query}
        items={orders}
        siteOrder={received}
        keyOf={(order) => order.id}
        texts={{
          error: messages.errors.orders,
          empty: words.empty,
          emptyBody: words.emptyBody,
          showMore: words.showMore,
          loadingMore: messages.courses.loadingMore,
          unavailableOne: words.unavailableOne,
          unavailable: words.unavailable,
        }}
        emptyAction={<SiteLink page="courses" label={messages.emptyStates.browseCourses} />}
      >
        {(items, itemProps) => (
          <ul className="flex flex-col gap-4">
            {items.map((order) => (
              <li key={order.id} {...itemProps(order)} className="rounded-xl outline-offset-4">
                <OrderCard order={order} />
              </li>
            ))}
          </ul>
        )}
      </PagedQueryBody>
    </div>
  );
}
