import "server-only";

import type { EventsPage } from "@/lib/types/account";
import { EVENT_REGISTRATION_FIELDS, type RawConnection, type RawEventRegistration } from "./fragments";
import { reshapeEventRegistration } from "./reshape-shared";

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
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...DashboardEventRegistration
        }
      }
    }
  }
  ${EVENT_REGISTRATION_FIELDS}
`;

export interface EventsVariables {
  first: number;
  after: string | null;
}

export interface EventsResult {
  viewer: { eventRegistrations: RawConnection<RawEventRegistration> };
}

export function eventsVariables(after?: string | null, first = EVENTS_PAGE_SIZE): EventsVariables {
  return { first, after: after ?? null };
}

/** Registrations read across pages: the nodes, the site's total when it tells, where to continue. */
export interface CollectedRegistrations {
  nodes: RawEventRegistration[];
  totalCount: number | null;
  nextCursor: string | null;
}

export function reshapeEvents(collected: CollectedRegistrations): EventsPage {
  const items = collected.nodes.map(reshapeEventRegistration);
  return { items, totalCount: collected.totalCount ?? items.length, nextCursor: collected.nextCursor };
}
