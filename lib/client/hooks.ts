import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { Page } from "@/lib/types/account";
import type { PagedAccountPageKey, WholeAccountPageKey } from "@/lib/contract/account-pages";
import { API_ROUTES } from "@/lib/contract/paths";
import { keepingPreferenceCookies } from "@/lib/i18n/cookies";
import { useI18n } from "@/lib/i18n/provider";
import { ApiError, asApiError, leaveForSignedOutPage, postAction, sessionEndedHere } from "./api";
import { leaveAfterSignOut, readSignOutOutcome, type SignOutOutcome } from "./sign-out";
import { accountPageQueryOptions, connectionsQueryOptions, pagedAccountPageQueryOptions, sessionQueryOptions } from "./queries";

/** An account page read whole, e.g. `useAccountPage("overview")`. */
export function useAccountPage<K extends WholeAccountPageKey>(key: K) {
  return useQuery(accountPageQueryOptions(key));
}

/** The site refused the next page's cursor (`query_failed`), or the dashboard did (`invalid_cursor`). */
function isRefusedCursor(error: unknown): boolean {
  const code = asApiError(error)?.code;
  return code === "query_failed" || code === "invalid_cursor";
}

/**
 * An account page read in pages ("Show more"), e.g. `usePagedAccountPage("orders")`.
 *
 * When the next page's cursor is refused, `fetchNextPage` reads the loaded pages again from the top,
 * once, and then the next page. The site may refuse it (`query_failed`): a site may stop taking a cursor
 * it handed out (its cursors expire, the list changed; the site documents no error that says so). The
 * dashboard may refuse it (`invalid_cursor`): the page was loaded before SESSION_SECRET rotated, or for
 * a member who has since signed out and another signed in. Only the list read from the start gives fresh
 * ones; otherwise the member would meet the same refusal on every Retry until they reloaded the page. If
 * it fails again, the error shows in place of "Show more", with Retry.
 */
export function usePagedAccountPage<K extends PagedAccountPageKey>(key: K) {
  const query = useInfiniteQuery(pagedAccountPageQueryOptions(key));
  // Named reads only: TanStack Query re-renders for the fields a component reads.
  const { data, error, isPending, isError, isFetching, isRefetchError, hasNextPage, fetchNextPage: readNextPage, refetch } = query;
  const [restart, setRestart] = useState<"none" | "reading" | "failed">("none");
  const fetchNextPage = useCallback(async () => {
    setRestart("none");
    const next = await readNextPage();
    if (!next.isFetchNextPageError || !isRefusedCursor(next.error)) return next;
    setRestart("reading");
    const fromTheTop = await refetch();
    setRestart(fromTheTop.isError ? "failed" : "none");
    const goesOn = Boolean(fromTheTop.data?.pages.at(-1)?.nextCursor);
    return fromTheTop.isError || !goesOn ? fromTheTop : readNextPage();
  }, [readNextPage, refetch]);
  return {
    data,
    error,
    isPending,
    isError,
    isFetching,
    refetch,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage: query.isFetchingNextPage || restart === "reading",
    isFetchNextPageError: query.isFetchNextPageError || (restart === "failed" && isRefetchError),
  };
}

export function useSession() {
  return useQuery(sessionQueryOptions());
}

/**
 * The AI-assistant panel's answer, in the page's language. A language switch asks again, and the answer in
 * the other language stays shown meanwhile: Settings' disclosure, shown only with an answer, stays open.
 */
export function useConnections() {
  return useQuery({ ...connectionsQueryOptions(useI18n().locale), placeholderData: keepPreviousData });
}

/**
 * Every item of every loaded page, in order, each once (by `keyOf`). A list that changed between two of
 * its pages on a site that pages by position (an order placed meanwhile) repeats an item at the seam;
 * shown twice, it would also give React two rows with one key.
 */
export function flattenPages<T>(pages: readonly Page<T>[] | undefined, keyOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  const items: T[] = [];
  for (const item of pages?.flatMap((page) => page.items) ?? []) {
    const key = keyOf(item);
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(item);
  }
  return items;
}

/**
 * Revokes the app's access at the site (POST /api/auth/revoke), drops every cached account answer and
 * leaves for the signed-out page.
 */
export function useRevokeAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => keepingPreferenceCookies(() => postAction(API_ROUTES.revoke)),
    onSuccess: () => leaveEndedSession(queryClient, () => leaveForSignedOutPage("revoked")),
    onError: (error) => {
      // The site refused (a configuration fault): the BFF ended the session, so say so on the signed-out page.
      if (error instanceof ApiError && error.code === "revocation_refused") {
        leaveEndedSession(queryClient, () => leaveForSignedOutPage("revoke_refused"));
      }
    },
  });
}

/**
 * Ends the local session (POST /api/auth/logout), drops every cached account answer and leaves for where
 * the BFF said (lib/client/sign-out.ts).
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<SignOutOutcome> =>
      readSignOutOutcome(await keepingPreferenceCookies(() => postAction(API_ROUTES.logout))),
    onSuccess: (outcome) => leaveEndedSession(queryClient, () => leaveAfterSignOut(outcome)),
  });
}

/**
 * After the BFF ended the session at this page's request: leaves (from the mutation's own callbacks, which
 * run even when the component that asked has gone, say after a nav link was followed meanwhile; a caller's
 * `mutate` callbacks would then never run), drops every cached account answer, and keeps the queries that
 * refetch meanwhile (answering 401) from sending the browser to sign in instead.
 */
function leaveEndedSession(queryClient: QueryClient, leave: () => void): void {
  sessionEndedHere();
  leave();
  queryClient.clear();
}
