import "server-only";

import { getConfig } from "@/lib/config";
import { RequestError } from "@/lib/http/request-errors";
import { DEFAULT_TIME_ZONE } from "@/lib/i18n/time-zone";
import type { SessionClaims } from "@/lib/session/session";
import type { Page } from "@/lib/types/account";

import { coverSourcesOf } from "./cover-url";
import type { AccountPageRequest } from "./page";
import { openPageCursor, sealPageCursor } from "./page-cursor";
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

/** `value` as an account page's key, or a RequestError "not_found". */
export function accountPageKeyOf(value: string): AccountPageKey {
  if (!isAccountPageKey(value)) throw new RequestError("not_found", "There is no such account page.");
  return value;
}

/** Whose page is loaded: the member's access token, and their subject at the site (what cursors are bound to). */
export interface AccountPageMember {
  accessToken: string;
  claims: Pick<SessionClaims, "sub">;
}

function isPage(data: object): data is Page<unknown> {
  return "nextCursor" in data;
}

/**
 * One page's data, in its UI type: for the BFF data route and the pages' server prefetch alike. `after`
 * is a cursor this function handed out earlier (`nextCursor`), for this page and this member: it is
 * opened before the site is asked, and the site's next cursor is sealed the same way (./page-cursor.ts).
 * `timeZone` is the member's (the Overview's upcoming events: an all-day event's last day ends there).
 */
export async function loadAccountPage<K extends AccountPageKey>(
  key: K,
  member: AccountPageMember,
  after: string | null = null,
  timeZone: string = DEFAULT_TIME_ZONE,
): Promise<AccountPageData[K]> {
  const config = getConfig();
  const { siteUrl, lectureUrlTemplate, courseUrlTemplate } = config;
  const binding = { page: key, member: member.claims.sub };
  const siteAfter = after === null ? null : await openPageCursor(after, binding);
  const load = ACCOUNT_PAGES[key];
  const data = await load({
    accessToken: member.accessToken,
    after: siteAfter,
    siteLinks: { siteUrl, lectureUrlTemplate, courseUrlTemplate, covers: coverSourcesOf(config) },
    now: new Date(),
    timeZone,
  });
  if (!isPage(data) || data.nextCursor === null) return data;
  return { ...data, nextCursor: await sealPageCursor(data.nextCursor, binding) };
}
