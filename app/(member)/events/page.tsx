import { EventsView } from "@/components/events/events-view";
import { PAGE_PATHS } from "@/lib/contract/paths";

import { renderMemberPage } from "@/app/_lib/member-page";
import { prefetchPagedAccountPage } from "@/app/_lib/prefetch-account-page";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((m) => m.nav.events);

export default function EventsPage() {
  return renderMemberPage(PAGE_PATHS.events, prefetchPagedAccountPage("events"), <EventsView />);
}
