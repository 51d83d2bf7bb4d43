import type { Metadata } from "next";

import { CoursesView } from "@/components/courses/courses-view";
import { PAGE_PATHS } from "@/lib/contract/paths";

import { renderMemberPage } from "../_lib/member-page";
import { prefetchPagedAccountPage } from "../_lib/prefetch-account-page";

export const metadata: Metadata = { title: "Courses" };

export default function CoursesPage() {
  return renderMemberPage(PAGE_PATHS.courses, prefetchPagedAccountPage("courses"), <CoursesView />);
}
