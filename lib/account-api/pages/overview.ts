import "server-only";

import { z } from "zod";

import { hasAccessEnded, isAccessEndingSoon } from "@/lib/format/access";
import { pickUpcomingRegistrations } from "@/lib/format/events";
import { isSiteError } from "@/lib/site/errors";
import type { CourseEnrollment, Overview } from "@/lib/types/account";

import { runAccountOperation } from "../client";
import {
  CONNECTION_PAGING_FIELDS,
  ENROLLED_COURSE_FIELDS,
  EVENT_REGISTRATION_FIELDS,
  RAW_ENROLLED_COURSE,
  RAW_EVENT_REGISTRATION,
  enrollmentKey,
  registrationKey,
  rawConnection,
  type RawEnrolledCourse,
  type RawEventRegistration,
} from "../fragments";
import { optionalFields, type AccountOperation } from "../operation";
import type { AccountPageRequest } from "../page";
import { collectPages } from "../paging";
import { reshapeEnrolledCourse, reshapeEventRegistration, type SiteLinkConfig } from "../reshape";
import { readEnrollments } from "./courses";
import { readRegistrations } from "./events";

/** How many upcoming events the overview lists. */
export const OVERVIEW_EVENT_LIMIT = 3;

/**
 * The overview considers up to this many enrollments (Continue watching, Ending soon) and
 * registrations (Upcoming events), read page by page; past the bound it says how many it left out.
 */
export const OVERVIEW_ENROLLMENT_BOUND = 500;
export const OVERVIEW_REGISTRATION_BOUND = 200;

/**
 * The member's name and the first page of enrollments and registrations in one round trip; the rest
 * of each connection is read with the Courses and Events operations, following `pageInfo`.
 */
export const OVERVIEW_DOCUMENT = /* GraphQL */ `
  query DashboardOverview($coursesFirst: Int!, $eventsFirst: Int!) {
    viewer {
      name
      email
      enrolledCourses(first: $coursesFirst) {
        ${CONNECTION_PAGING_FIELDS}
        nodes {
          ...DashboardEnrolledCourse
        }
      }
      eventRegistrations(first: $eventsFirst) {
        ${CONNECTION_PAGING_FIELDS}
        nodes {
          ...DashboardEventRegistration
        }
      }
    }
  }
  ${ENROLLED_COURSE_FIELDS}
  ${EVENT_REGISTRATION_FIELDS}
`;

/** Modest first pages of each connection (docs/architecture.md section 5: the site's cap is its own). */
export const OVERVIEW_PAGE_SIZE = 50;

/** The overview's answer; `eventRegistrations` is absent on a site without them, `name` on one without names. */
const OVERVIEW_ANSWER = z.object({
  viewer: z.object({
    name: z.string().nullish(),
    email: z.string(),
    enrolledCourses: rawConnection(RAW_ENROLLED_COURSE),
    eventRegistrations: rawConnection(RAW_EVENT_REGISTRATION).optional(),
  }),
});

const EVENT_REGISTRATIONS_FIELD = "Viewer.eventRegistrations";

/** The overview still greets and shows courses on a site without event registrations. */
export const OVERVIEW_OPERATION: AccountOperation<z.infer<typeof OVERVIEW_ANSWER>> = {
  document: OVERVIEW_DOCUMENT,
  answer: OVERVIEW_ANSWER,
  pageSizeVariables: ["coursesFirst", "eventsFirst"],
  optionalFields: optionalFields(EVENT_REGISTRATIONS_FIELD),
};

/** What the overview is computed from: the member and every enrollment and registration read, within the bounds. */
export interface OverviewInput {
  name?: string | null;
  email: string;
  enrollments: RawEnrolledCourse[];
  /** Enrollments past the bound that were not considered: 0, a count, or null when the site does not tell. */
  enrollmentsLeftOut: number | null;
  /** Null when the site does not provide event registrations; "failed" when it failed to give them this time. */
  registrations: RawEventRegistration[] | null | "failed";
  /**
   * Enrollments and registrations the site listed but could not give (RawConnection's `itemsUnavailable`);
   * none counted when the registrations failed.
   */
  enrollmentsUnavailable?: number;
  registrationsUnavailable?: number;
}

export interface ReshapeOverviewOptions extends SiteLinkConfig {
  /** The moment "upcoming" and "ending soon" are measured from. */
  now: Date;
  /** The member's time zone, where an all-day event's last day ends (lib/format/events.ts). */
  timeZone: string;
}

function watchedAtMs(course: CourseEnrollment): number {
  const watchedAt = course.lastWatched?.watchedAt;
  const ms = watchedAt ? Date.parse(watchedAt) : Number.NaN;
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/**
 * The overview: up to three courses in progress, most recently watched first (a course watched without a
 * `watchedAt` comes after those with one), courses whose access ends within 30 days soonest
 * first, and the next three upcoming, non-cancelled events.
 */
/** Courses under Continue watching. */
export const OVERVIEW_CONTINUE_LIMIT = 3;

export function reshapeOverview(input: OverviewInput, options: ReshapeOverviewOptions): Overview {
  const courses = input.enrollments.map((node) => reshapeEnrolledCourse(node, options));

  const continueWatching = courses
    .filter((course) => course.lastWatched && course.completionPercentage !== 100 && !hasAccessEnded(course.access, options.now))
    .sort((a, b) => watchedAtMs(b) - watchedAtMs(a))
    .slice(0, OVERVIEW_CONTINUE_LIMIT);

  const continueWatchingUnknown = courses.filter(
    (course) => course.lastWatchedUnknown && course.completionPercentage !== 100 && !hasAccessEnded(course.access, options.now),
  ).length;

  const endingSoon = courses.filter((course) => isAccessEndingSoon(course.access, options.now)).sort((a, b) => expiryMs(a) - expiryMs(b));

  const failed = input.registrations === "failed";
  const registrations =
    input.registrations === "failed" || input.registrations === null
      ? null
      : input.registrations.map((raw) => reshapeEventRegistration(raw, options.siteUrl));

  return {
    name: input.name?.trim() || input.email,
    continueWatching,
    continueWatchingUnknown,
    endingSoon,
    coursesLeftOut: input.enrollmentsLeftOut,
    upcomingEvents:
      registrations === null ? null : pickUpcomingRegistrations(registrations, options.now, options.timeZone, OVERVIEW_EVENT_LIMIT),
    ...(failed ? { upcomingEventsFailed: true as const } : {}),
    ...(input.enrollmentsUnavailable ? { coursesUnavailable: input.enrollmentsUnavailable } : {}),
    ...(input.registrationsUnavailable ? { registrationsUnavailable: input.registrationsUnavailable } : {}),
  };
}

function expiryMs(course: CourseEnrollment): number {
  return course.access.kind === "until" ? Date.parse(course.access.expiresAt) : Number.POSITIVE_INFINITY;
}

/** The member, then every enrollment and registration up to the overview's bounds (first pages in one round trip). */
async function readOverview(accessToken: string): Promise<OverviewInput> {
  // The site failed to give the registrations in this answer: the overview shows the rest and says so.
  let eventsFailed = false;
  const { viewer } = await runAccountOperation(
    accessToken,
    OVERVIEW_OPERATION,
    { coursesFirst: OVERVIEW_PAGE_SIZE, eventsFirst: OVERVIEW_PAGE_SIZE },
    { onFieldsLeftOut: (fields) => (eventsFailed ||= fields.includes(EVENT_REGISTRATIONS_FIELD)) },
  );
  const readMoreEnrollments = (first: number, after: string | null) => readEnrollments(accessToken, first, after);
  const readMoreRegistrations = (first: number, after: string | null) => readRegistrations(accessToken, first, after);
  const [enrollments, registrations] = await Promise.all([
    collectPages({
      firstPage: viewer.enrolledCourses,
      fetchPage: readMoreEnrollments,
      keyOf: enrollmentKey,
      maxItems: OVERVIEW_ENROLLMENT_BOUND,
    }),
    viewer.eventRegistrations
      ? collectPages({
          firstPage: viewer.eventRegistrations,
          fetchPage: readMoreRegistrations,
          keyOf: registrationKey,
          maxItems: OVERVIEW_REGISTRATION_BOUND,
          // A later page the site cannot answer takes the events with it, never the courses.
        }).catch((error: unknown) => {
          if (!isSiteError(error, "account_api_failed")) throw error;
          return "failed" as const;
        })
      : null,
  ]);
  return {
    name: viewer.name,
    email: viewer.email,
    enrollments: enrollments.nodes,
    enrollmentsLeftOut: enrollments.moreCount,
    registrations: eventsFailed || registrations === "failed" ? "failed" : (registrations?.nodes ?? null),
    enrollmentsUnavailable: enrollments.itemsUnavailable,
    registrationsUnavailable: registrations === "failed" ? 0 : (registrations?.itemsUnavailable ?? 0),
  };
}

/**
 * The overview: its own operation reads the member and the first page of each connection; the rest is
 * read with the Courses and Events operations up to the overview's bounds. It always starts at the
 * beginning (no cursor).
 */
export async function loadOverview({ accessToken, siteLinks, now, timeZone }: AccountPageRequest): Promise<Overview> {
  return reshapeOverview(await readOverview(accessToken), { ...siteLinks, now, timeZone });
}
