import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { Locale } from "@/lib/i18n/locales";
import type { Connections } from "@/lib/types/account";
import { accountDataPath, type AccountPageData, type PagedAccountPageKey, type WholeAccountPageKey } from "@/lib/contract/account-pages";
import { API_ROUTES } from "@/lib/contract/paths";
import type { SessionView } from "@/lib/contract/session";
import type { PublicSiteInfo } from "@/lib/contract/site-info";
import { getJson } from "./api";
import { accountKeys } from "./keys";

function withCursor(route: string, after: string | null): string {
  return after ? `${route}?after=${encodeURIComponent(after)}` : route;
}

/**
 * An account page read whole (lib/contract/account-pages.ts). Shared by the server's prefetch (which
 * swaps in a `queryFn` that loads the page directly, app/_lib/prefetch-account-page.ts) and the
 * browser (hydrated, then asking the page's data route), so the keys are identical on both sides.
 */
export function accountPageQueryOptions<K extends WholeAccountPageKey>(key: K) {
  return queryOptions({
    queryKey: accountKeys.page(key),
    queryFn: ({ signal }) => getJson<AccountPageData[K]>(accountDataPath(key), signal),
  });
}

/** An account page read in pages, like {@link accountPageQueryOptions}; `pageParam` is the `after` cursor (null: the first page). */
export function pagedAccountPageQueryOptions<K extends PagedAccountPageKey>(key: K) {
  return infiniteQueryOptions({
    queryKey: accountKeys.page(key),
    queryFn: ({ pageParam, signal }) => getJson<AccountPageData[K]>(withCursor(accountDataPath(key), pageParam), signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page: AccountPageData[K]) => page.nextCursor,
  });
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.session(),
    queryFn: ({ signal }) => getJson<SessionView>(API_ROUTES.session, signal),
  });
}

/**
 * The Settings page's AI-assistant panel. Browser only: the server never prefetches it, so a slow or
 * absent MCP server cannot delay Settings.
 */
export function connectionsQueryOptions(locale: Locale) {
  return queryOptions({
    queryKey: accountKeys.connections(locale),
    queryFn: ({ signal }) => getJson<Connections>(API_ROUTES.connections, signal),
  });
}

/** The site's name, address and framing origins, for the prerendered signed-out page: nothing personal, asked once. */
export function siteInfoQueryOptions() {
  return queryOptions({
    queryKey: ["site"] as const,
    queryFn: ({ signal }) => getJson<PublicSiteInfo>(API_ROUTES.site, signal),
    staleTime: Infinity,
  });
}
