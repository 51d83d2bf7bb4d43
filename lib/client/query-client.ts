import { defaultShouldDehydrateQuery, isServer, QueryClient, type Query } from "@tanstack/react-query";
import { errorKindOf } from "./api";

const MAX_RETRIES = 2;

/**
 * One request to the site per page view, also when it fails: only a request that never reached the
 * dashboard (the member's network) is retried on its own. Whatever the BFF answered (the site refused
 * the query, did not answer in time, is down, the session ended) is shown at once, and the member's
 * Retry asks again.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return errorKindOf(error) === "network" && failureCount < MAX_RETRIES;
}

/** A query whose last attempt failed is asked again only by the member's Retry, not by focusing the window. */
function refetchUnlessFailed(query: Query): boolean {
  return query.state.status !== "error";
}

/** How long the browser keeps a page's data after its last component leaves (a tab visited again shows it at once). */
const BROWSER_GC_TIME_MS = 10 * 60_000;

/**
 * A QueryClient with the dashboard's defaults: data fresh for a minute, so hydrated data is not refetched at once.
 * On the server a client lives for one render: its queries schedule no removal timer (`gcTime: Infinity`,
 * TanStack Query's own server default), or each page view would keep its QueryClient and the member's
 * data reachable for ten minutes after the answer was sent.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: isServer ? Infinity : BROWSER_GC_TIME_MS,
        retry: shouldRetry,
        // A failure the server's prefetch already met (dehydrated into the page) is shown, not asked again.
        retryOnMount: false,
        refetchOnWindowFocus: refetchUnlessFailed,
        // Back online, the page on screen is refreshed once by the shell (components/layout/offline-navigation.tsx).
        refetchOnReconnect: false,
      },
      // A member's action (sign out, revoke, end a sign-in) is sent when tapped, or fails at once offline and
      // says so: never held until the connection returns and then done unasked (TanStack's "online" mode).
      mutations: { retry: false, networkMode: "always" },
      dehydrate: {
        // Pending prefetches stream to the browser too (TanStack Query >= 5.40), and so does a failed
        // prefetch (its error is the public error as plain data: app/_lib/prefetch-account-page.ts): the
        // browser shows it instead of asking again. Not a refused sign-in: the browser asks the BFF
        // route, which refreshes the token (or sends the member to sign in).
        shouldDehydrateQuery: (query) =>
          defaultShouldDehydrateQuery(query) ||
          query.state.status === "pending" ||
          (query.state.status === "error" && errorKindOf(query.state.error) !== "unauthenticated"),
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
