import "server-only";

import {
  ACCOUNT_OPERATIONS,
  loadAllEnrollments,
  eventsVariables,
  ordersVariables,
  OVERVIEW_VARIABLES,
  reshapeAllEnrollments,
  reshapeEvents,
  reshapeOrders,
  reshapeOverview,
  type AccountPageKey,
  type CoursesResult,
  type EventsResult,
  type OrdersResult,
  type OverviewResult,
} from "@/lib/account";
import { getConfig } from "@/lib/config";
import type { CoursesPage, EventsPage, OrdersPage, Overview } from "@/lib/types/account";

import { runAccountOperation } from "./account-api";

export interface AccountPageData {
  overview: Overview;
  courses: CoursesPage;
  orders: OrdersPage;
  events: EventsPage;
}

export function isAccountPageKey(value: string): value is AccountPageKey {
  return Object.hasOwn(ACCOUNT_OPERATIONS, value);
}

/**
 * One page's data: one named GraphQL operation at the site, reshaped into the UI's types (Courses runs
 * it once per page of enrollments, up to a bound).
 * Used by the BFF data routes and by the pages' server prefetch alike.
 */
export async function loadAccountPage<K extends AccountPageKey>(key: K, accessToken: string, after: string | null = null): Promise<AccountPageData[K]> {
  const config = getConfig();
  const resume = { siteUrl: config.siteUrl, lectureUrlTemplate: config.lectureUrlTemplate, courseUrlTemplate: config.courseUrlTemplate };
  const operation = ACCOUNT_OPERATIONS[key];
  const load = async (): Promise<AccountPageData[AccountPageKey]> => {
    switch (key) {
      case "overview":
        return reshapeOverview(await runAccountOperation<OverviewResult>(accessToken, operation, { ...OVERVIEW_VARIABLES }), {
          ...resume,
          now: new Date(),
        });
      case "courses":
        // Every enrollment (bounded), so the Courses page can filter and count across all of them.
        return reshapeAllEnrollments(
          await loadAllEnrollments((variables) => runAccountOperation<CoursesResult>(accessToken, operation, { ...variables }), { after }),
          resume,
        );
      case "orders":
        return reshapeOrders(await runAccountOperation<OrdersResult>(accessToken, operation, { ...ordersVariables(after) }));
      case "events":
        return reshapeEvents(await runAccountOperation<EventsResult>(accessToken, operation, { ...eventsVariables(after) }));
      default:
        throw new Error(`Unknown account page ${String(key)}`);
    }
  };
  return (await load()) as AccountPageData[K];
}
