import type { Metadata } from "next";

import { OrdersView } from "@/components/orders/orders-view";
import { ordersInfiniteQueryOptions } from "@/lib/client/queries";
import { loadAccountPage } from "@/lib/site/account-pages";

import { renderMemberPage } from "../_lib/member-page";
import { PAGE_PATHS } from "@/lib/contract/paths";

export const metadata: Metadata = { title: "Orders" };

export default function OrdersPage() {
  return renderMemberPage(
    PAGE_PATHS.orders,
    (queryClient, session) =>
      queryClient.prefetchInfiniteQuery({
        ...ordersInfiniteQueryOptions(),
        queryFn: ({ pageParam }) => loadAccountPage("orders", session.accessToken, pageParam),
      }),
    <OrdersView />,
  );
}
