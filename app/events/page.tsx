import type { Metadata } from "next";

import { EventsView } from "@/components/events/events-view";
import { PAGE_PATHS } from "@/lib/contract/paths";

import { renderMemberPage } from "../_lib/member-page";
import { prefetchPagedAccountPage } from "../_lib/prefetch-account-page";

export const metadata: Metadata = { title: "Events" };

export default function EventsPage() {
  return renderMemberPage(PAGE_PATHS.events, prefetchPagedAccountPage("events"), <EventsView />);
}
