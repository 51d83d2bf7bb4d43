import { EventsView } from "@/components/events/events-view";

import { renderPagedMemberPage } from "@/app/_lib/member-page";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((m) => m.nav.events);

export default function EventsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return renderPagedMemberPage("events", searchParams, <EventsView />);
}
