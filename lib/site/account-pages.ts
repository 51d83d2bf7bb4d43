import "server-only";

import {
  ACCOUNT_OPERATIONS,
  coursesVariables,
  ENROLLMENTS_BOUND,
  ENROLLMENTS_PAGE_SIZE,
  EVENTS_BOUND,
  EVENTS_PAGE_SIZE,
  eventsVariables,
  ordersVariables,
  OVERVIEW_ENROLLMENT_BOUND,
  OVERVIEW_REGISTRATION_BOUND,
  OVERVIEW_VARIABLES,
  reshapeAllEnrollments,
  reshapeEvents,
  reshapeOrders,
  reshapeOverview,
  type AccountPageKey,
  type CoursesResult,
  type EventsResult,
  type OrdersResult,
  type OverviewInput,
  type OverviewResult,
  type RawEnrolledCourse,
  type RawEventRegistration,
} from "@/lib/account";
import { getConfig } from "@/lib/config";
import type { CoursesPage, EventsPage, OrdersPage, Overview } from "@/lib/types/account";

import { runAccountOperation } from "./account-api";
import { collectPages, type SiteConnection } from "./paging";

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
 * One page's data: the page's named GraphQL operation at the site, reshaped into the UI's types.
 * Overview, Courses and Events read their connections page by page (collectPages) up to a stated bound;
 * Orders reads one page per call ("Show more" asks for the next). Used by the BFF data routes and
 * by the pages' server prefetch alike.
 */
export async function loadAccountPage<K extends AccountPageKey>(
  key: K,
  accessToken: string,
  after: string | null = null,
): Promise<AccountPageData[K]> {
  const config = getConfig();
  const resume = { siteUrl: config.siteUrl, lectureUrlTemplate: config.lectureUrlTemplate, courseUrlTemplate: config.courseUrlTemplate };
  const load = async (): Promise<AccountPageData[AccountPageKey]> => {
    switch (key) {
      case "overview":
        return reshapeOverview(await readOverview(accessToken), { ...resume, now: new Date() });
      case "courses":
        // Every enrollment (bounded), so the Courses page can filter and count across all of them.
        return reshapeAllEnrollments(
          await collectPages({
            fetchPage: enrollmentsPageReader(accessToken),
            maxItems: ENROLLMENTS_BOUND,
            pageSize: ENROLLMENTS_PAGE_SIZE,
            after,
          }),
          resume,
        );
      case "orders":
        return reshapeOrders(
          await runAccountOperation<OrdersResult>(accessToken, ACCOUNT_OPERATIONS.orders, { ...ordersVariables(after) }),
        );
      case "events":
        return reshapeEvents(
          await collectPages({ fetchPage: eventsPageReader(accessToken), maxItems: EVENTS_BOUND, pageSize: EVENTS_PAGE_SIZE, after }),
        );
      default:
        throw new Error(`Unknown account page ${String(key)}`);
    }
  };
  return (await load()) as AccountPageData[K];
}

/** Reads `first` enrollments after a cursor with the Courses operation: a `fetchPage` for collectPages. */
export function enrollmentsPageReader(
  accessToken: string,
): (first: number, after: string | null) => Promise<SiteConnection<RawEnrolledCourse>> {
  return async (first, after) =>
    (await runAccountOperation<CoursesResult>(accessToken, ACCOUNT_OPERATIONS.courses, { ...coursesVariables(after, first) })).viewer
      .enrolledCourses;
}

/** Reads `first` registrations after a cursor with the Events operation: a `fetchPage` for collectPages. */
export function eventsPageReader(
  accessToken: string,
): (first: number, after: string | null) => Promise<SiteConnection<RawEventRegistration>> {
  return async (first, after) =>
    (await runAccountOperation<EventsResult>(accessToken, ACCOUNT_OPERATIONS.events, { ...eventsVariables(after, first) })).viewer
      .eventRegistrations;
}

/** The member, then every enrollment and registration up to the overview's bounds (first pages in one round trip). */
async function readOverview(accessToken: string): Promise<OverviewInput> {
  const { viewer } = await runAccountOperation<OverviewResult>(accessToken, ACCOUNT_OPERATIONS.overview, { ...OVERVIEW_VARIABLES });
  const [enrollments, registrations] = await Promise.all([
    collectPages({ firstPage: viewer.enrolledCourses, fetchPage: enrollmentsPageReader(accessToken), maxItems: OVERVIEW_ENROLLMENT_BOUND }),
    viewer.eventRegistrations
      ? collectPages({
          firstPage: viewer.eventRegistrations,
          fetchPage: eventsPageReader(accessToken),
          maxItems: OVERVIEW_REGISTRATION_BOUND,
        })
      : null,
  ]);
  return {
    name: viewer.name,
    email: viewer.email,
    enrollments: enrollments.nodes,
    enrollmentsLeftOut: enrollments.moreCount,
    registrations: registrations?.nodes ?? null,
  };
}
