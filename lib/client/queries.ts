import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { Connections, CoursesPage, EventsPage, OrdersPage, Overview, Page } from "@/lib/types/account";
import { API_ROUTES } from "@/lib/contract/paths";
import type { SessionView } from "@/lib/contract/session";
import { getJson } from "./api";
import { accountKeys } from "./keys";

function withCursor(route: string, after: string | null): string {
  return after ? `${route}?after=${encodeURIComponent(after)}` : route;
}

function nextCursor<T>(page: Page<T>): string | null {
  return page.nextCursor;
}

/**
 * Query options shared by the server (prefetch, with its own `queryFn` that calls lib/account directly)
 * and the browser (hydrated, then fetching the BFF route). Keep the keys identical on both sides.
 */
export function overviewQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.overview(),
    queryFn: ({ signal }) => getJson<Overview>(API_ROUTES.overview, signal),
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
export function connectionsQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.connections(),
    queryFn: ({ signal }) => getJson<Connections>(API_ROUTES.connections, signal),
  });
}

/** Pages of enrollments; `pageParam` is the `after` cursor (null for the first page). */
export function coursesInfiniteQueryOptions() {
  return infiniteQueryOptions({
    queryKey: accountKeys.courses(),
    queryFn: ({ pageParam, signal }) => getJson<CoursesPage>(withCursor(API_ROUTES.courses, pageParam), signal),
    initialPageParam: null as string | null,
    getNextPageParam: nextCursor<CoursesPage["items"][number]>,
  });
}

export function ordersInfiniteQueryOptions() {
  return infiniteQueryOptions({
    queryKey: accountKeys.orders(),
    queryFn: ({ pageParam, signal }) => getJson<OrdersPage>(withCursor(API_ROUTES.orders, pageParam), signal),
    initialPageParam: null as string | null,
    getNextPageParam: nextCursor<OrdersPage["items"][number]>,
  });
}

export function eventsInfiniteQueryOptions() {
  return infiniteQueryOptions({
    queryKey: accountKeys.events(),
    queryFn: ({ pageParam, signal }) => getJson<EventsPage>(withCursor(API_ROUTES.events, pageParam), signal),
    initialPageParam: null as string | null,
    getNextPageParam: nextCursor<EventsPage["items"][number]>,
  });
}
