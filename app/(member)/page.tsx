import { OverviewView } from "@/components/overview/overview-view";
import { PAGE_PATHS } from "@/lib/contract/paths";

import { renderMemberPage } from "@/app/_lib/member-page";
import { localizedTitle } from "@/app/_lib/page-title";
import { prefetchAccountPage } from "@/app/_lib/prefetch-account-page";

export const generateMetadata = localizedTitle((m) => m.overview.title, { besideTheLayout: true });

export default function OverviewPage() {
  return renderMemberPage(PAGE_PATHS.overview, prefetchAccountPage("overview"), <OverviewView />);
}
