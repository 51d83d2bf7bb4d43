import { CoursesView } from "@/components/courses/courses-view";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { parseShownPages } from "@/lib/contract/shown-pages";

import { renderMemberPage } from "@/app/_lib/member-page";
import { prefetchPagedAccountPage } from "@/app/_lib/prefetch-account-page";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((m) => m.nav.courses);

/**
 * The loads of enrollments the URL asks for (`pages`, left by "Show more" past the first 500;
 * lib/contract/shown-pages.ts) are in the first HTML.
 */
export default async function CoursesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const pages = parseShownPages(await searchParams);
  return renderMemberPage(PAGE_PATHS.courses, prefetchPagedAccountPage("courses", pages), <CoursesView />);
}
