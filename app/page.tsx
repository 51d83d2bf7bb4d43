import { OverviewView } from "@/components/overview/overview-view";
import { overviewQueryOptions } from "@/lib/client/queries";
import { loadAccountPage } from "@/lib/site/account-pages";

import { renderMemberPage } from "./_lib/member-page";

export default function OverviewPage() {
  return renderMemberPage(
    "/",
    (queryClient, session) =>
      queryClient.prefetchQuery({ ...overviewQueryOptions(), queryFn: () => loadAccountPage("overview", session.accessToken) }),
    <OverviewView />,
  );
}
