"use client";

import { useQuery } from "@tanstack/react-query";

import { MemberCourses, type Enrollment } from "./member-courses";

/** The member's courses rendered by a client component, their data handed over as its props. */
export function ClientCourseList({ courses }: { courses: readonly Enrollment[] }) {
  return <MemberCourses courses={courses} />;
}

export const COURSES_QUERY_KEY = ["courses"] as const;

/**
 * The same read from React Query's cache, which the server's dehydrated query filled (query-list/page.tsx,
 * the dashboard's pattern) or, given `initialCourses`, the query's initial data from the component's props
 * (initial-data-list/page.tsx). The data is fresh for a minute, so the browser does not ask again on hydration.
 */
export function QueryCourseList({ initialCourses }: { initialCourses?: Enrollment[] }) {
  const { data } = useQuery<Enrollment[]>({
    queryKey: COURSES_QUERY_KEY,
    queryFn: () => Promise.reject(new Error("the floor's courses come only from the server's prefetch")),
    staleTime: 60_000,
    ...(initialCourses ? { initialData: initialCourses } : {}),
  });
  return <MemberCourses courses={data ?? []} />;
}
