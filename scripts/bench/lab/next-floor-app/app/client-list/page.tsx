import { ClientCourseList } from "../client-course-list";
import { fetchMemberCourses } from "../member-courses";

/**
 * /member-list with its courses rendered by a client component (their data its props): what the
 * Flight payload of the data and React's second pass over client markup add to a view.
 */
export default async function ClientListPage() {
  return <ClientCourseList courses={await fetchMemberCourses()} />;
}
