import { OrdersView } from "@/components/orders/orders-view";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { parseShownPages } from "@/lib/contract/shown-pages";

import { renderMemberPage } from "@/app/_lib/member-page";
import { prefetchPagedAccountPage } from "@/app/_lib/prefetch-account-page";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((m) => m.nav.orders);

/** The `pages` of its list the URL asks for (lib/contract/shown-pages.ts) are in the first HTML. */
export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const pages = parseShownPages(await searchParams);
  return renderMemberPage(PAGE_PATHS.orders, prefetchPagedAccountPage("orders", pages), <OrdersView />);
}
