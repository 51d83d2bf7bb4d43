import "server-only";

import type { AccountPageData, AccountPageKey } from "@/lib/contract/account-pages";

import { coursesPage } from "./courses";
import type { AccountPageDescriptor } from "./descriptor";
import { eventsPage } from "./events";
import { ordersPage } from "./orders";
import { overviewPage } from "./overview";

/**
 * Every account page's descriptor, by the key the browser knows it by (lib/contract/account-pages.ts):
 * the only GraphQL the BFF sends on the member's behalf. Typed so that each key's descriptor answers
 * that page's UI type.
 */
export const ACCOUNT_PAGE_DESCRIPTORS: { readonly [K in AccountPageKey]: AccountPageDescriptor<AccountPageData[K]> } = {
  overview: overviewPage,
  courses: coursesPage,
  orders: ordersPage,
  events: eventsPage,
};
