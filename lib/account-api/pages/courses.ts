import "server-only";

import { z } from "zod";

import type { CoursesPage } from "@/lib/types/account";

import { runAccountOperation } from "../client";
import {
  CONNECTION_PAGING_FIELDS,
  ENROLLED_COURSE_FIELDS,
  RAW_ENROLLED_COURSE,
  enrollmentKey,
  rawConnection,
  type RawConnection,
  type RawEnrolledCourse,
} from "../fragments";
import { connectionOperation } from "../operation";
import type { AccountPageRequest } from "../page";
import { collectPages, type CollectedConnection } from "../paging";
import { reshapeEnrolledCourse, unavailableItems, type SiteLinkConfig } from "../reshape";

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

export const COURSES_OPERATION = connectionOperation(
  COURSES_DOCUMENT,
  z.object({ viewer: z.object({ enrolledCourses: rawConnection(RAW_ENROLLED_COURSE) }) }),
);

/** The loaded enrollments as one Courses page: every item, and the cursor to go on from when the bound stopped. */
export function reshapeCourses(all: CollectedConnection<RawEnrolledCourse>, config: SiteLinkConfig): CoursesPage {
  return {
    items: all.nodes.map((node) => reshapeEnrolledCourse(node, config)),
    totalCount: Math.max(all.totalCount ?? 0, all.nodes.length),
    nextCursor: all.nextCursor,
    ...unavailableItems(all.itemsUnavailable),
  };
}

/** `first` enrollments after a cursor (null: from the start), with the Courses operation (the overview reads on with it too). */
export async function readEnrollments(accessToken: string, first: number, after: string | null): Promise<RawConnection<RawEnrolledCourse>> {
  const result = await runAccountOperation(accessToken, COURSES_OPERATION, { first, after });
  return result.viewer.enrolledCourses;
}

/**
 * The Courses page reads every enrollment (up to its bound), so it can filter and count across all of
 * them; "Show more" goes on from where the bound stopped.
 */
export async function loadCourses({ accessToken, after, siteLinks }: AccountPageRequest): Promise<CoursesPage> {
  const read = (first: number, cursor: string | null) => readEnrollments(accessToken, first, cursor);
  return reshapeCourses(
    await collectPages({ fetchPage: read, keyOf: enrollmentKey, maxItems: COURSES_BOUND, pageSize: COURSES_PAGE_SIZE, after }),
    siteLinks,
  );
}
