import { Suspense } from "react";

import { OverviewView } from "@/components/overview/overview-view";
import { PageSkeleton } from "@/components/ui/page-skeleton";
import { PAGE_PATHS } from "@/lib/contract/paths";

import { renderMemberPage } from "./_lib/member-page";
import { localizedTitle } from "./_lib/page-title";
import { prefetchAccountPage } from "./_lib/prefetch-account-page";

export const generateMetadata = localizedTitle((m) => m.overview.title);

/** Overview's data, below its skeleton (a loading.tsx here would cover every page of the root segment). */
async function Overview() {
  return renderMemberPage(PAGE_PATHS.overview, prefetchAccountPage("overview"), <OverviewView />);
}

export default function OverviewPage() {
  return (
    <Suspense fallback={<PageSkeleton page="overview" />}>
      <Overview />
    </Suspense>
  );
}
