import { OverviewView } from "@/components/overview/overview-view";
import { PAGE_PATHS } from "@/lib/contract/paths";

import { renderMemberPage } from "./_lib/member-page";
import { prefetchAccountPage } from "./_lib/prefetch-account-page";

export default function OverviewPage() {
  return renderMemberPage(PAGE_PATHS.overview, prefetchAccountPage("overview"), <OverviewView />);
}
