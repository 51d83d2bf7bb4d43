import type { AccountPageData, AccountPageKey } from "@/lib/account-api/registry";
import type { Page } from "@/lib/types/account";

/**
 * The account pages as the browser knows them, all derived from the server's one list
 * (lib/account-api/registry.ts, a type-only import: nothing of it reaches the browser). Client-safe.
 */
export type { AccountPageData, AccountPageKey };

/** The pages read in pages ("Show more" with `?after=`; an infinite query in the browser): those whose data is a {@link Page}. */
export type PagedAccountPageKey = { [K in AccountPageKey]: AccountPageData[K] extends Page<unknown> ? K : never }[AccountPageKey];

/** The pages read whole in one call (a plain query in the browser). */
export type WholeAccountPageKey = Exclude<AccountPageKey, PagedAccountPageKey>;

/** The data route of a page: `GET /api/account/<key>` (app/api/account/[resource]/route.ts). */
export function accountDataPath(key: AccountPageKey): string {
  return `/api/account/${key}`;
}
