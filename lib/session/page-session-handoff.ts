import "server-only";

import { randomBytes } from "node:crypto";

import { processWide } from "@/lib/server/process-wide";

import { BoundedTtlMap } from "./opened-seals";
import type { SessionData } from "./session";

/**
 * The request header by which the proxy hands a page render the session it has just opened, checked and
 * refreshed (proxy.ts), so that the render does not open it again: one "ended" lookup in the shared state
 * per page view instead of two (a Redis round trip each in production), and no second hash of the cookie.
 *
 * The header carries no session, only a ticket: 128 random bits naming an entry of this process's
 * memory, good for one read within `PAGE_SESSION_TICKET_TTL_MS`. A ticket a request brings is never
 * trusted: the proxy removes the header from every page request before it sets its own, and a value
 * that names nothing (guessed, replayed, expired, or from another process) is only a miss, after which
 * the render opens the cookie itself as it always could (lib/auth/page-session.ts). So a request that got
 * past the proxy (CVE-2025-29927 was such a bypass) brings no session of its own into the render: there,
 * the cookie is checked again.
 */
export const PAGE_SESSION_TICKET_HEADER = "x-dashboard-page-session";

/** The proxy's render follows it at once; a ticket never read (a page that reads no session) goes soon. */
export const PAGE_SESSION_TICKET_TTL_MS = 30_000;
/** Tickets not yet read, at most (each holds a session of about 3 KB); past it the oldest go first. */
export const PAGE_SESSION_TICKET_MAX_ENTRIES = 2_000;

// One for the process: the proxy and the pages are bundled apart, each with its own copy of this module.
const tickets = processWide(
  "page-session-tickets",
  () => new BoundedTtlMap<SessionData>(PAGE_SESSION_TICKET_MAX_ENTRIES, PAGE_SESSION_TICKET_TTL_MS),
);

/** Keeps a copy of the session for this request's render, and returns the ticket that names it. */
export function handOffPageSession(session: SessionData): string {
  const ticket = randomBytes(16).toString("base64url");
  tickets.set(ticket, { ...session });
  return ticket;
}

/** The session the proxy handed this render under `ticket`, once; undefined for anything else. */
export function takeHandedOffPageSession(ticket: string | null | undefined): SessionData | undefined {
  return ticket ? tickets.take(ticket) : undefined;
}

/** How many tickets are waiting to be read (tests). */
export function pendingPageSessionTickets(): number {
  return tickets.size;
}
