import { OrdersView } from "@/components/orders/orders-view";

import { renderPagedMemberPage } from "@/app/_lib/member-page";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((m) => m.nav.orders);

export default function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return renderPagedMemberPage("orders", searchParams, <OrdersView />);
}
