import type { Metadata } from "next";

import { OrdersView } from "@/components/orders/orders-view";
import { PAGE_PATHS } from "@/lib/contract/paths";

import { renderMemberPage } from "../_lib/member-page";
import { prefetchPagedAccountPage } from "../_lib/prefetch-account-page";

export const metadata: Metadata = { title: "Orders" };

export default function OrdersPage() {
  return renderMemberPage(PAGE_PATHS.orders, prefetchPagedAccountPage("orders"), <OrdersView />);
}
