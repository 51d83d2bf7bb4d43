import { defaultShouldDehydrateQuery, isServer, QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api";

const MAX_RETRIES = 2;

/** Retries transient failures, never a missing session or scope (those need the member, not a retry). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && (error.kind === "unauthenticated" || error.kind === "insufficient_scope")) return false;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  // The site answered, but cannot run this page's query (its schema differs): asking again changes nothing.
  if (error instanceof ApiError && error.code === "query_failed") return false;
  return failureCount < MAX_RETRIES;
}

/** A QueryClient with the dashboard's defaults: data fresh for a minute, so hydrated data is not refetched at once. */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: 10 * 60_000,
        retry: shouldRetry,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
      dehydrate: {
        // Pending prefetches stream to the browser too (TanStack Query >= 5.40).
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

/** A fresh client per server render; one shared client in the browser, so navigation reuses the cache. */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}
