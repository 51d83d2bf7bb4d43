import "server-only";

import { getConfig } from "@/lib/config";

import type { AccountPageRequest } from "./page";
import { loadCourses } from "./pages/courses";
import { loadEvents } from "./pages/events";
import { loadOrders } from "./pages/orders";
import { loadOverview } from "./pages/overview";

/**
 * The account pages: the only list of them. Each key is the page's name for the browser and its data
 * route (`/api/account/<key>`, lib/contract/account-pages.ts); each `load` reads the page at the site and
 * reshapes it into its UI type, which the browser's types are derived from.
 */
const LOADERS = {
  overview: loadOverview,
  courses: loadCourses,
  orders: loadOrders,
  events: loadEvents,
};

export type AccountPageKey = keyof typeof LOADERS;
export type AccountPageData = { [K in AccountPageKey]: Awaited<ReturnType<(typeof LOADERS)[K]>> };

/** The same list, typed so that one page's `load` is known to answer that page's data. */
export const ACCOUNT_PAGES: { readonly [K in AccountPageKey]: (request: AccountPageRequest) => Promise<AccountPageData[K]> } = LOADERS;

export function isAccountPageKey(value: string): value is AccountPageKey {
  return Object.hasOwn(ACCOUNT_PAGES, value);
}

/** One page's data, in its UI type: for the BFF data route and the pages' server prefetch alike. */
export async function loadAccountPage<K extends AccountPageKey>(
  key: K,
  accessToken: string,
  after: string | null = null,
): Promise<AccountPageData[K]> {
  const { siteUrl, lectureUrlTemplate, courseUrlTemplate } = getConfig();
  const load = ACCOUNT_PAGES[key];
  return load({ accessToken, after, resume: { siteUrl, lectureUrlTemplate, courseUrlTemplate }, now: new Date() });
}
