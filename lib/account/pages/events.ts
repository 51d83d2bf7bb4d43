import "server-only";

import { collectPages } from "@/lib/site/paging";
import type { EventsPage } from "@/lib/types/account";

import { CONNECTION_PAGING_FIELDS, EVENT_REGISTRATION_FIELDS, type RawConnection, type RawEventRegistration } from "../fragments";
import { reshapeEventRegistration } from "../reshape-shared";
import { connectionQuery, connectionReader, type AccountPageDescriptor, type CollectedConnection, type RunOperation } from "./descriptor";

/** Registrations per request: a modest page, under any sensible cap of the site. */
export const EVENTS_PAGE_SIZE = 50;
/**
 * The Events page splits upcoming from past, so it reads up to this many registrations page by page
 * before it answers (the stated bound); "Show more" reads the next ones.
 */
export const EVENTS_BOUND = 200;

/** One page of the member's event registrations. */
export const EVENTS_DOCUMENT = /* GraphQL */ `
  query DashboardEvents($first: Int!, $after: String) {
    viewer {
      eventRegistrations(first: $first, after: $after) {
        ${CONNECTION_PAGING_FIELDS}
        nodes {
          ...DashboardEventRegistration
        }
      }
    }
  }
  ${EVENT_REGISTRATION_FIELDS}
`;

export interface EventsResult {
  viewer: { eventRegistrations: RawConnection<RawEventRegistration> };
}

export function reshapeEvents(collected: CollectedConnection<RawEventRegistration>): EventsPage {
  const items = collected.nodes.map(reshapeEventRegistration);
  return { items, totalCount: collected.totalCount ?? items.length, nextCursor: collected.nextCursor };
}

/** The Events page: registrations read page by page up to its bound; "Show more" goes on from there. */
export const eventsPage: AccountPageDescriptor<EventsPage> = {
  ...connectionQuery(EVENTS_DOCUMENT),
  pageSize: EVENTS_PAGE_SIZE,
  load: async ({ run, after }) =>
    reshapeEvents(await collectPages({ fetchPage: readRegistrations(run), maxItems: EVENTS_BOUND, pageSize: EVENTS_PAGE_SIZE, after })),
};

/**
 * Reads `first` registrations after a cursor with the Events operation: a `fetchPage` for collectPages (the
 * overview reads on with it too).
 */
export function readRegistrations(run: RunOperation) {
  return connectionReader(eventsPage, run, (result: EventsResult) => result.viewer.eventRegistrations);
}
