import "server-only";

import { z } from "zod";

import type { EventsPage } from "@/lib/types/account";

import { runAccountOperation } from "../client";
import {
  CONNECTION_PAGING_FIELDS,
  EVENT_REGISTRATION_FIELDS,
  RAW_EVENT_REGISTRATION,
  registrationKey,
  rawConnection,
  type RawConnection,
  type RawEventRegistration,
} from "../fragments";
import { connectionOperation } from "../operation";
import type { AccountPageRequest } from "../page";
import { collectPages, type CollectedConnection } from "../paging";
import { reshapeEventRegistration, unavailableItems } from "../reshape";

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

export const EVENTS_OPERATION = connectionOperation(
  EVENTS_DOCUMENT,
  z.object({ viewer: z.object({ eventRegistrations: rawConnection(RAW_EVENT_REGISTRATION) }) }),
);

export function reshapeEvents(collected: CollectedConnection<RawEventRegistration>, siteUrl: string): EventsPage {
  const items = collected.nodes.map((node) => reshapeEventRegistration(node, siteUrl));
  return {
    items,
    totalCount: collected.totalCount ?? items.length,
    nextCursor: collected.nextCursor,
    ...unavailableItems(collected.itemsUnavailable),
  };
}

/** `first` registrations after a cursor (null: from the start), with the Events operation (the overview reads on with it too). */
export async function readRegistrations(
  accessToken: string,
  first: number,
  after: string | null,
): Promise<RawConnection<RawEventRegistration>> {
  const result = await runAccountOperation(accessToken, EVENTS_OPERATION, { first, after });
  return result.viewer.eventRegistrations;
}

/** The Events page: registrations read page by page up to its bound; "Show more" goes on from there. */
export async function loadEvents({ accessToken, after, siteLinks }: AccountPageRequest): Promise<EventsPage> {
  const read = (first: number, cursor: string | null) => readRegistrations(accessToken, first, cursor);
  return reshapeEvents(
    await collectPages({ fetchPage: read, keyOf: registrationKey, maxItems: EVENTS_BOUND, pageSize: EVENTS_PAGE_SIZE, after }),
    siteLinks.siteUrl,
  );
}
