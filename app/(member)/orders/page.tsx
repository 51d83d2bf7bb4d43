import { OrdersView } from "@/components/orders/orders-view";
import { PAGE_PATHS } from "@/lib/contract/paths";

import { renderMemberPage } from "@/app/_lib/member-page";
import { prefetchPagedAccountPage } from "@/app/_lib/prefetch-account-page";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((m) => m.nav.orders);

export default function OrdersPage() {
  return renderMemberPage(PAGE_PATHS.orders, prefetchPagedAccountPage("orders"), <OrdersView />);
}
