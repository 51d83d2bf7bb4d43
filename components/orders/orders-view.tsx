"use client";

import type { ReactNode } from "react";
import { flattenPages, useOrders } from "@/lib/client/hooks";
import { useI18n } from "@/lib/i18n/provider";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { ShowMoreButton } from "@/components/ui/show-more-button";
import { OrderCard } from "./order-card";

/** The Orders page: every order, newest first as the site lists them, a page at a time. */
export function OrdersView() {
  const { messages } = useI18n();
  const query = useOrders();
  const orders = flattenPages(query.data?.pages);

  let body: ReactNode;
  if (query.isPending) {
    body = <LoadingState label={messages.app.loading} />;
  } else if (query.isError && orders.length === 0) {
    body = <ErrorPanel title={messages.errors.orders} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  } else if (orders.length === 0) {
    body = <EmptyState title={messages.orders.empty} body={messages.orders.emptyBody} />;
  } else {
    body = (
      <>
        <ul className="flex flex-col gap-4">
          {orders.map((order) => (
            <li key={order.id}>
              <OrderCard order={order} />
            </li>
          ))}
        </ul>
        {query.isFetchNextPageError ? (
          <div className="mt-6">
            <ErrorPanel
              title={messages.errors.orders}
              error={query.error}
              onRetry={() => void query.fetchNextPage()}
              retrying={query.isFetchingNextPage}
            />
          </div>
        ) : query.hasNextPage ? (
          <ShowMoreButton
            onClick={() => void query.fetchNextPage()}
            loading={query.isFetchingNextPage}
            label={messages.orders.showMore}
            loadingLabel={messages.courses.loadingMore}
          />
        ) : null}
      </>
    );
  }

  return (
    <div>
      <PageHeader title={messages.orders.title} />
      {body}
    </div>
  );
}
