import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Page } from "@/lib/types/account";
import type { PagedAccountPageKey, WholeAccountPageKey } from "@/lib/contract/account-pages";
import { API_ROUTES } from "@/lib/contract/paths";
import { keepingPreferenceCookies } from "@/lib/i18n/cookies";
import { ApiError, leaveForSignedOutPage, postAction } from "./api";
import { readSignOutOutcome, type SignOutOutcome } from "./sign-out";
import { accountPageQueryOptions, connectionsQueryOptions, pagedAccountPageQueryOptions, sessionQueryOptions } from "./queries";

/** An account page read whole, e.g. `useAccountPage("overview")`. */
export function useAccountPage<K extends WholeAccountPageKey>(key: K) {
  return useQuery(accountPageQueryOptions(key));
}

/** An account page read in pages ("Show more"), e.g. `usePagedAccountPage("orders")`. */
export function usePagedAccountPage<K extends PagedAccountPageKey>(key: K) {
  return useInfiniteQuery(pagedAccountPageQueryOptions(key));
}

export function useSession() {
  return useQuery(sessionQueryOptions());
}

export function useConnections() {
  return useQuery(connectionsQueryOptions());
}

/** Every item of every loaded page, in order. */
export function flattenPages<T>(pages: readonly Page<T>[] | undefined): T[] {
  return pages ? pages.flatMap((page) => page.items) : [];
}

/**
 * Revokes the app's access at the site (POST /api/auth/revoke), then drops every cached account answer.
 * The caller navigates to the signed-out page on success.
 */
export function useRevokeAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => keepingPreferenceCookies(() => postAction(API_ROUTES.revoke)),
    onSuccess: () => queryClient.clear(),
    onError: (error) => {
      // The site refused (a configuration fault): the BFF ended the session, so say so on the signed-out page.
      if (error instanceof ApiError && error.code === "revocation_refused") {
        queryClient.clear();
        leaveForSignedOutPage("revoke_refused");
      }
    },
  });
}

/** Ends the local session (POST /api/auth/logout) and drops every cached account answer. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<SignOutOutcome> =>
      readSignOutOutcome(await keepingPreferenceCookies(() => postAction(API_ROUTES.logout))),
    onSuccess: () => queryClient.clear(),
  });
}
