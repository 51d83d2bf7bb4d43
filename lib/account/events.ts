import "server-only";

import type { EventsPage } from "@/lib/types/account";
import { EVENT_REGISTRATION_FIELDS, type RawEventRegistration, type RawPageInfo } from "./fragments";
import { nextCursorOf, reshapeEventRegistration } from "./reshape-shared";

export const EVENTS_OPERATION_NAME = "DashboardEvents";
/** The site's cap; the Events page splits upcoming from past, so it reads as much as one page allows. */
export const EVENTS_PAGE_SIZE = 100;

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
  viewer: {
    eventRegistrations: {
      totalCount: number;
      pageInfo: RawPageInfo;
      nodes: RawEventRegistration[];
    };
  };
}

export function eventsVariables(after?: string | null): EventsVariables {
  return { first: EVENTS_PAGE_SIZE, after: after ?? null };
}

export function reshapeEvents(data: EventsResult): EventsPage {
  const connection = data.viewer.eventRegistrations;
  return {
    items: connection.nodes.map(reshapeEventRegistration),
    totalCount: connection.totalCount,
    nextCursor: nextCursorOf(connection.pageInfo),
  };
}
