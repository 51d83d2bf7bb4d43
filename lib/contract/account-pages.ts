import type { CoursesPage, EventsPage, OrdersPage, Overview, Page } from "@/lib/types/account";

import { API_ROUTES } from "./paths";

/**
 * The account pages as the browser knows them: each page's key, the UI type its data route answers and
 * its view renders, the data route, and whether it is read in pages ("Show more" with `?after=`). The
 * server's side of each page (its GraphQL operation, reading and reshaping) is its descriptor in
 * lib/account/pages/. Client-safe.
 */
export interface AccountPageData {
  overview: Overview;
  courses: CoursesPage;
  orders: OrdersPage;
  events: EventsPage;
}

export type AccountPageKey = keyof AccountPageData;

/** A page read in pages must answer a {@link Page} (its `nextCursor` is the next `?after=`). */
type AccountPageRoute<TData> = { readonly path: string; readonly paged: TData extends Page<unknown> ? boolean : false };

export const ACCOUNT_PAGES = {
  overview: { path: API_ROUTES.overview, paged: false },
  courses: { path: API_ROUTES.courses, paged: true },
  orders: { path: API_ROUTES.orders, paged: true },
  events: { path: API_ROUTES.events, paged: true },
} as const satisfies { readonly [K in AccountPageKey]: AccountPageRoute<AccountPageData[K]> };

/** The pages read in pages (an infinite query in the browser). */
export type PagedAccountPageKey = { [K in AccountPageKey]: (typeof ACCOUNT_PAGES)[K]["paged"] extends true ? K : never }[AccountPageKey];

/** The pages read whole in one call (a plain query in the browser). */
export type WholeAccountPageKey = Exclude<AccountPageKey, PagedAccountPageKey>;
