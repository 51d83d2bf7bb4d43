import "server-only";

import type { CoursesPage } from "@/lib/types/account";
import type { CoursesResult, CoursesVariables } from "./courses";
import type { RawEnrolledCourse } from "./fragments";
import type { ResumeUrlConfig } from "./lecture-url";
import { reshapeEnrolledCourse } from "./reshape-shared";

/** Enrollments asked for per request: modest, well under any cap a site is likely to set. */
export const ENROLLMENTS_PAGE_SIZE = 50;
/** At most this many enrollments per load (10 requests of 50); the rest is one "Show more" away. */
export const ENROLLMENTS_BOUND = 500;

/** Runs the DashboardCourses operation for one page of enrollments. */
export type FetchEnrollmentsPage = (variables: CoursesVariables) => Promise<CoursesResult>;

export interface AllEnrollmentsOptions {
  /** Start after this cursor (null: from the first enrollment). */
  after?: string | null;
  bound?: number;
  pageSize?: number;
}

export interface AllEnrollments {
  nodes: RawEnrolledCourse[];
  /** How many enrollments the site says the member has. */
  totalCount: number;
  /** Where the load stopped because it reached the bound; null when it read every enrollment. */
  nextCursor: string | null;
}

/**
 * Reads the member's enrollments from `after` on, following `pageInfo.hasNextPage`/`endCursor` with
 * modest pages, until the site has no more or `bound` enrollments are read. When the bound stops it,
 * `nextCursor` says so and where to go on. A site that repeats a cursor or sends an empty page while
 * claiming more ends the load instead of looping.
 */
export async function loadAllEnrollments(fetchPage: FetchEnrollmentsPage, options: AllEnrollmentsOptions = {}): Promise<AllEnrollments> {
  const bound = options.bound ?? ENROLLMENTS_BOUND;
  const pageSize = options.pageSize ?? ENROLLMENTS_PAGE_SIZE;
  const nodes: RawEnrolledCourse[] = [];
  const seenCursors = new Set<string>();
  let after = options.after ?? null;
  let totalCount = 0;
  for (;;) {
    const connection = (await fetchPage({ first: Math.min(pageSize, bound - nodes.length), after })).viewer.enrolledCourses;
    totalCount = connection.totalCount;
    nodes.push(...connection.nodes);
    const cursor = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null;
    if (cursor === null || connection.nodes.length === 0 || seenCursors.has(cursor)) {
      return { nodes, totalCount: Math.max(totalCount, nodes.length), nextCursor: null };
    }
    seenCursors.add(cursor);
    if (nodes.length >= bound) return { nodes, totalCount, nextCursor: cursor };
    after = cursor;
  }
}

/** The loaded enrollments as one Courses page: every item, and the cursor to go on from when the bound stopped. */
export function reshapeAllEnrollments(all: AllEnrollments, config: ResumeUrlConfig): CoursesPage {
  return {
    items: all.nodes.map((node) => reshapeEnrolledCourse(node, config)),
    totalCount: all.totalCount,
    nextCursor: all.nextCursor,
  };
}
