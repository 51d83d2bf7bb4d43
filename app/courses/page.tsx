import type { Metadata } from "next";

import { CoursesView } from "@/components/courses/courses-view";
import { coursesInfiniteQueryOptions } from "@/lib/client/queries";
import { loadAccountPage } from "@/lib/site/account-pages";

import { renderMemberPage } from "../_lib/member-page";
import { PAGE_PATHS } from "@/lib/contract/paths";

export const metadata: Metadata = { title: "Courses" };

export default function CoursesPage() {
  return renderMemberPage(
    PAGE_PATHS.courses,
    (queryClient, session) =>
      queryClient.prefetchInfiniteQuery({
        ...coursesInfiniteQueryOptions(),
        queryFn: ({ pageParam }) => loadAccountPage("courses", session.accessToken, pageParam),
      }),
    <CoursesView />,
  );
}
