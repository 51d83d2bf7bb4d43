import { CoursesView } from "@/components/courses/courses-view";

import { renderPagedMemberPage } from "@/app/_lib/member-page";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((m) => m.nav.courses);

export default function CoursesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return renderPagedMemberPage("courses", searchParams, <CoursesView />);
}
