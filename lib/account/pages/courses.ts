import "server-only";

import { collectPages } from "@/lib/site/paging";
import type { CoursesPage } from "@/lib/types/account";

import { CONNECTION_PAGING_FIELDS, ENROLLED_COURSE_FIELDS, type RawConnection, type RawEnrolledCourse } from "../fragments";
import type { ResumeUrlConfig } from "../lecture-url";
import { reshapeEnrolledCourse } from "../reshape-shared";
import { connectionQuery, connectionReader, type AccountPageDescriptor, type CollectedConnection, type RunOperation } from "./descriptor";

/** Enrollments asked for per request: modest, well under any cap a site is likely to set. */
export const COURSES_PAGE_SIZE = 50;
/** At most this many enrollments per load (10 requests of 50); the rest is one "Show more" away. */
export const COURSES_BOUND = 500;

/** One page of the member's enrollments. */
export const COURSES_DOCUMENT = /* GraphQL */ `
  query DashboardCourses($first: Int!, $after: String) {
    viewer {
      enrolledCourses(first: $first, after: $after) {
        ${CONNECTION_PAGING_FIELDS}
        nodes {
          ...DashboardEnrolledCourse
        }
      }
    }
  }
  ${ENROLLED_COURSE_FIELDS}
`;

export interface CoursesResult {
  viewer: { enrolledCourses: RawConnection<RawEnrolledCourse> };
}

/** The loaded enrollments as one Courses page: every item, and the cursor to go on from when the bound stopped. */
export function reshapeCourses(all: CollectedConnection<RawEnrolledCourse>, config: ResumeUrlConfig): CoursesPage {
  return {
    items: all.nodes.map((node) => reshapeEnrolledCourse(node, config)),
    totalCount: Math.max(all.totalCount ?? 0, all.nodes.length),
    nextCursor: all.nextCursor,
  };
}

/**
 * The Courses page reads every enrollment (up to its bound), so it can filter and count across all of
 * them; "Show more" goes on from where the bound stopped.
 */
export const coursesPage: AccountPageDescriptor<CoursesPage> = {
  ...connectionQuery(COURSES_DOCUMENT),
  pageSize: COURSES_PAGE_SIZE,
  load: async ({ run, after, resume }) =>
    reshapeCourses(
      await collectPages({ fetchPage: readEnrollments(run), maxItems: COURSES_BOUND, pageSize: COURSES_PAGE_SIZE, after }),
      resume,
    ),
};

/**
 * Reads `first` enrollments after a cursor with the Courses operation: a `fetchPage` for collectPages (the
 * overview reads on with it too).
 */
export function readEnrollments(run: RunOperation) {
  return connectionReader(coursesPage, run, (result: CoursesResult) => result.viewer.enrolledCourses);
}
