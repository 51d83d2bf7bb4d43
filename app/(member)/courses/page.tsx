import { CoursesView } from "@/components/courses/courses-view";
import { PAGE_PATHS } from "@/lib/contract/paths";

import { renderMemberPage } from "@/app/_lib/member-page";
import { prefetchPagedAccountPage } from "@/app/_lib/prefetch-account-page";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((m) => m.nav.courses);

export default function CoursesPage() {
  return renderMemberPage(PAGE_PATHS.courses, prefetchPagedAccountPage("courses"), <CoursesView />);
}
