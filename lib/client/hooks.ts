import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Page } from "@/lib/types/account";
import { postAction } from "./api";
import {
  ACCOUNT_ROUTES,
  connectionsQueryOptions,
  coursesInfiniteQueryOptions,
  eventsInfiniteQueryOptions,
  ordersInfiniteQueryOptions,
  overviewQueryOptions,
  sessionQueryOptions,
} from "./queries";

export function useOverview() {
  return useQuery(overviewQueryOptions());
}

export function useSession() {
  return useQuery(sessionQueryOptions());
}

export function useConnections() {
  return useQuery(connectionsQueryOptions());
}

export function useCourses() {
  return useInfiniteQuery(coursesInfiniteQueryOptions());
}

export function useOrders() {
  return useInfiniteQuery(ordersInfiniteQueryOptions());
}

export function useEvents() {
  return useInfiniteQuery(eventsInfiniteQueryOptions());
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
    mutationFn: () => postAction(ACCOUNT_ROUTES.revoke),
    onSuccess: () => queryClient.clear(),
  });
}

/** Ends the local session (POST /api/auth/logout) and drops every cached account answer. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => postAction(ACCOUNT_ROUTES.logout),
    onSuccess: () => queryClient.clear(),
  });
}
