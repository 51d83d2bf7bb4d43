import "server-only";

import type { QueryClient } from "@tanstack/react-query";

import { accountPageQueryOptions, pagedAccountPageQueryOptions } from "@/lib/client/queries";
import type { PagedAccountPageKey, WholeAccountPageKey } from "@/lib/contract/account-pages";
import type { SessionData } from "@/lib/session/session";
import { loadAccountPage } from "@/lib/site/account-pages";
import { withMemberBinding } from "@/lib/auth/dpop";
import { requireGrantedScope } from "@/lib/auth/granted-scopes";

/** A member page's server prefetch (renderMemberPage's `prefetch`). */
type Prefetch = (queryClient: QueryClient, session: SessionData) => Promise<void>;

/**
 * Prefetches an account page read whole: the browser's query options (same key), with a `queryFn` that
 * loads the page at the site directly instead of through the BFF route.
 */
export function prefetchAccountPage(key: WholeAccountPageKey): Prefetch {
  return (queryClient, session) =>
    queryClient.prefetchQuery({
      ...accountPageQueryOptions(key),
      queryFn: () => {
        requireGrantedScope(session);
        return withMemberBinding(session, () => loadAccountPage(key, session.accessToken));
      },
    });
}

/** Prefetches the first page of an account page read in pages, like {@link prefetchAccountPage}. */
export function prefetchPagedAccountPage(key: PagedAccountPageKey): Prefetch {
  return (queryClient, session) =>
    queryClient.prefetchInfiniteQuery({
      ...pagedAccountPageQueryOptions(key),
      queryFn: ({ pageParam }) => {
        requireGrantedScope(session);
        return withMemberBinding(session, () => loadAccountPage(key, session.accessToken, pageParam));
      },
    });
}
