import "server-only";

import type { CoursesPage } from "@/lib/types/account";
import { ENROLLED_COURSE_FIELDS, type RawConnection, type RawEnrolledCourse } from "./fragments";
import type { ResumeUrlConfig } from "./lecture-url";
import { reshapeEnrolledCourse, reshapePage } from "./reshape-shared";

/** Enrollments per page on the Courses page ("Show more" fetches the next one). */
export const COURSES_PAGE_SIZE = 24;

/** One page of the member's enrollments. */
export const COURSES_DOCUMENT = /* GraphQL */ `
  query DashboardCourses($first: Int!, $after: String) {
    viewer {
      enrolledCourses(first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...DashboardEnrolledCourse
        }
      }
    }
  }
  ${ENROLLED_COURSE_FIELDS}
`;

export interface CoursesVariables {
  first: number;
  after: string | null;
}

export interface CoursesResult {
  viewer: { enrolledCourses: RawConnection<RawEnrolledCourse> };
}

/** Variables for `first` enrollments after `after` (null or absent: the first page). */
export function coursesVariables(after?: string | null, first = COURSES_PAGE_SIZE): CoursesVariables {
  return { first, after: after ?? null };
}

export function reshapeCourses(data: CoursesResult, config: ResumeUrlConfig): CoursesPage {
  return reshapePage(data.viewer.enrolledCourses, (node) => reshapeEnrolledCourse(node, config));
}
