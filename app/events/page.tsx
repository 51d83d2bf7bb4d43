import type { Metadata } from "next";

import { EventsView } from "@/components/events/events-view";
import { eventsInfiniteQueryOptions } from "@/lib/client/queries";
import { loadAccountPage } from "@/lib/site/account-pages";

import { renderMemberPage } from "../_lib/member-page";
import { PAGE_PATHS } from "@/lib/contract/paths";

export const metadata: Metadata = { title: "Events" };

export default function EventsPage() {
  return renderMemberPage(
    PAGE_PATHS.events,
    (queryClient, session) =>
      queryClient.prefetchInfiniteQuery({
        ...eventsInfiniteQueryOptions(),
        queryFn: ({ pageParam }) => loadAccountPage("events", session.accessToken, pageParam),
      }),
    <EventsView />,
  );
}
