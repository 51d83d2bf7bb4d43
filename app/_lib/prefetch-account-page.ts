import "server-only";

import type { QueryClient } from "@tanstack/react-query";

import { loadAccountPage } from "@/lib/account-api/registry";
import { accountPageQueryOptions, pagedAccountPageQueryOptions } from "@/lib/client/queries";
import type { AccountPageData, AccountPageKey, PagedAccountPageKey, WholeAccountPageKey } from "@/lib/contract/account-pages";
import { publicErrorOf } from "@/lib/http/error-responses";
import type { SessionData } from "@/lib/session/session";
import { PAGE_VIEW_DEADLINE_MS, withSiteDeadline } from "@/lib/site/site-deadline";
import { withMemberBinding } from "@/lib/auth/dpop";
import { requireGrantedScope } from "@/lib/auth/granted-scopes";

import { getRequestLocale } from "./request-locale";

/** A member page's server prefetch (renderMemberPage's `prefetch`). */
type Prefetch = (queryClient: QueryClient, session: SessionData) => Promise<void>;

/**
 * A prefetch's query function: loads at the site within what is left of the page view's one deadline
 * (`deadlineMs`, by default all of PAGE_VIEW_DEADLINE_MS) and, when that fails, rejects with the public
 * error as plain data, what the BFF route would have answered. The browser is handed it and shows the
 * page's own error with Retry at once, without asking the site a second time; the server's error (its
 * cause chain) never leaves the server.
 */
async function loadForPage<T>(load: () => Promise<T>, deadlineMs = PAGE_VIEW_DEADLINE_MS): Promise<T> {
  try {
    return await withSiteDeadline(deadlineMs, load);
  } catch (error) {
    // Plain data, not an Error: the one thing that survives serialisation into the page.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw publicErrorOf(error);
  }
}

/** One page of `key` for the member, as the data route would answer it, in the request's time zone. */
async function loadForMember<K extends AccountPageKey>(key: K, session: SessionData, after: string | null): Promise<AccountPageData[K]> {
  requireGrantedScope(session);
  const { timeZone } = await getRequestLocale();
  return withMemberBinding(session, () => loadAccountPage(key, session, after, timeZone));
}

/**
 * Prefetches an account page read whole: the browser's query options (same key), with a `queryFn` that
 * loads the page at the site directly instead of through the BFF route.
 */
export function prefetchAccountPage(key: WholeAccountPageKey): Prefetch {
  return (queryClient, session) =>
    queryClient.prefetchQuery({
      ...accountPageQueryOptions(key),
      queryFn: () => loadForPage(() => loadForMember(key, session, null)),
    });
}

/**
 * Prefetches the first `pages` pages of an account page read in pages (the URL's `?pages=`,
 * lib/contract/shown-pages.ts), like {@link prefetchAccountPage}, all within the page view's one deadline.
 * A page after the first that fails ends the list there: the pages already read are shown, with Show more.
 */
export function prefetchPagedAccountPage(key: PagedAccountPageKey, pages = 1): Prefetch {
  return async (queryClient, session) => {
    const endsAt = performance.now() + PAGE_VIEW_DEADLINE_MS;
    const options = pagedAccountPageQueryOptions(key);
    const load = (after: string | null) => loadForPage(() => loadForMember(key, session, after), endsAt - performance.now());
    await queryClient.prefetchInfiniteQuery({ ...options, queryFn: ({ pageParam }) => load(pageParam) });
    for (let read = 1; read < pages; read += 1) {
      const data = queryClient.getQueryData(options.queryKey);
      const after = data?.pages.at(-1)?.nextCursor;
      if (!data || !after) return;
      try {
        const next = await load(after);
        queryClient.setQueryData(options.queryKey, { pages: [...data.pages, next], pageParams: [...data.pageParams, after] });
      } catch {
        return;
      }
    }
  };
}
