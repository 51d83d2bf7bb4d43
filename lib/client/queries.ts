import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { Connections, CoursesPage, EventsPage, OrdersPage, Overview, Page, SessionInfo } from "@/lib/types/account";
import { getJson } from "./api";
import { accountKeys } from "./keys";

/** The BFF routes the browser reads. */
export const ACCOUNT_ROUTES = {
  overview: "/api/account/overview",
  courses: "/api/account/courses",
  orders: "/api/account/orders",
  events: "/api/account/events",
  connections: "/api/account/connections",
  session: "/api/session",
  revoke: "/api/auth/revoke",
  logout: "/api/auth/logout",
} as const;

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
    queryFn: ({ signal }) => getJson<Overview>(ACCOUNT_ROUTES.overview, signal),
  });
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.session(),
    queryFn: ({ signal }) => getJson<SessionInfo>(ACCOUNT_ROUTES.session, signal),
  });
}

/**
 * The Settings page's AI-assistant panel. Browser only: the server never prefetches it, so a slow or
 * absent MCP server cannot delay Settings.
 */
export function connectionsQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.connections(),
    queryFn: ({ signal }) => getJson<Connections>(ACCOUNT_ROUTES.connections, signal),
  });
}

/** Pages of enrollments; `pageParam` is the `after` cursor (null for the first page). */
export function coursesInfiniteQueryOptions() {
  return infiniteQueryOptions({
    queryKey: accountKeys.courses(),
    queryFn: ({ pageParam, signal }) => getJson<CoursesPage>(withCursor(ACCOUNT_ROUTES.courses, pageParam), signal),
    initialPageParam: null as string | null,
    getNextPageParam: nextCursor<CoursesPage["items"][number]>,
  });
}

export function ordersInfiniteQueryOptions() {
  return infiniteQueryOptions({
    queryKey: accountKeys.orders(),
    queryFn: ({ pageParam, signal }) => getJson<OrdersPage>(withCursor(ACCOUNT_ROUTES.orders, pageParam), signal),
    initialPageParam: null as string | null,
    getNextPageParam: nextCursor<OrdersPage["items"][number]>,
  });
}

export function eventsInfiniteQueryOptions() {
  return infiniteQueryOptions({
    queryKey: accountKeys.events(),
    queryFn: ({ pageParam, signal }) => getJson<EventsPage>(withCursor(ACCOUNT_ROUTES.events, pageParam), signal),
    initialPageParam: null as string | null,
    getNextPageParam: nextCursor<EventsPage["items"][number]>,
  });
}
