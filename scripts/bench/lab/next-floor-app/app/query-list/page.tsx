import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";

import { COURSES_QUERY_KEY, QueryCourseList } from "../client-course-list";
import { fetchMemberCourses } from "../member-courses";
import { QueryProvider } from "../query-provider";

/**
 * /client-list the way the dashboard's pages do it (app/_lib/member-page.tsx): the courses prefetched into
 * a React Query client on the server, dehydrated into the page and read by the client component from the
 * cache the browser hydrates.
 */
export default async function QueryListPage() {
  const queryClient = new QueryClient();
  await queryClient.prefetchQuery({ queryKey: COURSES_QUERY_KEY, queryFn: fetchMemberCourses });
  return (
    <QueryProvider>
      <HydrationBoundary state={dehydrate(queryClient)}>
        <QueryCourseList />
      </HydrationBoundary>
    </QueryProvider>
  );
}
