import "server-only";

import { hasAccessEnded, isAccessEndingSoon } from "@/lib/format/access";
import { pickUpcomingRegistrations } from "@/lib/format/events";
import type { CourseEnrollment, Overview } from "@/lib/types/account";
import {
  ENROLLED_COURSE_FIELDS,
  EVENT_REGISTRATION_FIELDS,
  type RawEnrolledCourse,
  type RawEventRegistration,
} from "./fragments";
import type { ResumeUrlConfig } from "./lecture-url";
import { reshapeEnrolledCourse, reshapeEventRegistration } from "./reshape-shared";

export const OVERVIEW_OPERATION_NAME = "DashboardOverview";
/** How many upcoming events the overview lists. */
export const OVERVIEW_EVENT_LIMIT = 3;

/** The member's name, enrollments and registrations in one round trip (the site caps `first` at 100). */
export const OVERVIEW_DOCUMENT = /* GraphQL */ `
  query DashboardOverview($coursesFirst: Int!, $eventsFirst: Int!) {
    viewer {
      name
      email
      enrolledCourses(first: $coursesFirst) {
        nodes {
          ...DashboardEnrolledCourse
        }
      }
      eventRegistrations(first: $eventsFirst) {
        nodes {
          ...DashboardEventRegistration
        }
      }
    }
  }
  ${ENROLLED_COURSE_FIELDS}
  ${EVENT_REGISTRATION_FIELDS}
`;

export interface OverviewVariables {
  coursesFirst: number;
  eventsFirst: number;
}

export const OVERVIEW_VARIABLES: OverviewVariables = { coursesFirst: 100, eventsFirst: 100 };

export interface OverviewResult {
  viewer: {
    name: string | null;
    email: string;
    enrolledCourses: { nodes: RawEnrolledCourse[] };
    eventRegistrations: { nodes: RawEventRegistration[] };
  };
}

export interface ReshapeOverviewOptions extends ResumeUrlConfig {
  /** The moment "upcoming" and "ending soon" are measured from. */
  now: Date;
}

function watchedAtMs(course: CourseEnrollment): number {
  const watchedAt = course.lastWatched?.watchedAt;
  const ms = watchedAt ? Date.parse(watchedAt) : Number.NaN;
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/**
 * The overview: the most recently watched course whose access has not ended (a course watched without a
 * `watchedAt` counts only when no other has one), courses whose access ends within 30 days soonest
 * first, and the next three upcoming, non-cancelled events.
 */
export function reshapeOverview(data: OverviewResult, options: ReshapeOverviewOptions): Overview {
  const { viewer } = data;
  const courses = viewer.enrolledCourses.nodes.map((node) => reshapeEnrolledCourse(node, options));

  const watchable = courses.filter((course) => course.lastWatched && !hasAccessEnded(course.access, options.now));
  const continueWatching = watchable.reduce<CourseEnrollment | null>(
    (best, course) => (best === null || watchedAtMs(course) > watchedAtMs(best) ? course : best),
    null,
  );

  const endingSoon = courses
    .filter((course) => isAccessEndingSoon(course.access, options.now))
    .sort((a, b) => expiryMs(a) - expiryMs(b));

  const registrations = viewer.eventRegistrations.nodes.map(reshapeEventRegistration);

  return {
    name: viewer.name?.trim() || viewer.email,
    continueWatching,
    endingSoon,
    upcomingEvents: pickUpcomingRegistrations(registrations, options.now, OVERVIEW_EVENT_LIMIT),
  };
}

function expiryMs(course: CourseEnrollment): number {
  return course.access.kind === "until" ? Date.parse(course.access.expiresAt) : Number.POSITIVE_INFINITY;
}
