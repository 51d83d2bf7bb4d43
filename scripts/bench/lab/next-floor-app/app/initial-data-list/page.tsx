import { QueryCourseList } from "../client-course-list";
import { fetchMemberCourses } from "../member-courses";
import { QueryProvider } from "../query-provider";

/**
 * /query-list with the courses handed to the client component as its query's initial data (props), not
 * as a dehydrated query: React Query's other way to start a client's cache with what the server read.
 */
export default async function InitialDataListPage() {
  return (
    <QueryProvider>
      <QueryCourseList initialCourses={await fetchMemberCourses()} />
    </QueryProvider>
  );
}
