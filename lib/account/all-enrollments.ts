import "server-only";

import type { CoursesPage } from "@/lib/types/account";
import type { RawEnrolledCourse } from "./fragments";
import type { ResumeUrlConfig } from "./lecture-url";
import { reshapeEnrolledCourse } from "./reshape-shared";

/** Enrollments asked for per request: modest, well under any cap a site is likely to set. */
export const ENROLLMENTS_PAGE_SIZE = 50;
/** At most this many enrollments per load (10 requests of 50); the rest is one "Show more" away. */
export const ENROLLMENTS_BOUND = 500;

/** Enrollments read for the Courses page (lib/site's collectPages): every item up to the bound, and where to go on. */
export interface LoadedEnrollments {
  nodes: RawEnrolledCourse[];
  /** How many the site says the member has; null from a site without `totalCount`. */
  totalCount: number | null;
  /** Where the read stopped at the bound; null when it read every enrollment. */
  nextCursor: string | null;
}

/** The loaded enrollments as one Courses page: every item, and the cursor to go on from when the bound stopped. */
export function reshapeAllEnrollments(all: LoadedEnrollments, config: ResumeUrlConfig): CoursesPage {
  return {
    items: all.nodes.map((node) => reshapeEnrolledCourse(node, config)),
    totalCount: Math.max(all.totalCount ?? 0, all.nodes.length),
    nextCursor: all.nextCursor,
  };
}
