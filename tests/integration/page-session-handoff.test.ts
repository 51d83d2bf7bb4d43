/**
 * The proxy hands the page render the session it has just opened, checked and refreshed, by a one-time
 * ticket in the request's headers (lib/session/page-session-handoff.ts): the render does not look the
 * session's "ended" mark up again (a Redis round trip per page view in production), and a ticket a
 * request brings, guesses or replays opens nothing.
 */
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import CoursesPage from "@/app/(member)/courses/page";
import { readPageSession } from "@/lib/auth/page-session";
import type * as Handoff from "@/lib/session/page-session-handoff";
import {
  handOffPageSession,
  PAGE_SESSION_TICKET_HEADER,
  PAGE_SESSION_TICKET_MAX_ENTRIES,
  PAGE_SESSION_TICKET_TTL_MS,
  pendingPageSessionTickets,
  takeHandedOffPageSession,
} from "@/lib/session/page-session-handoff";
import { InMemorySharedState, setSharedStateForTests } from "@/lib/session/shared-state";
import { proxy } from "@/proxy";

import { anotherBundlesCopy } from "../support/another-bundle";
import { setUpDashboardOnFakeSite } from "../support/dashboard-on-fake-site";
import { TEST_APP_URL } from "../support/env";
import { requestHeaders } from "../support/request-headers";
import { sessionData } from "../support/session-data";
import { expiringSession, sessionCookie } from "../support/session-fixture";

vi.mock("next/headers", () => import("../support/request-headers"));
vi.mock("next/server", async (real) => ({ ...(await real<object>()), ...(await import("../support/after-response")) }));

const site = setUpDashboardOnFakeSite();

/** Next.js carries the request headers the proxy sets to the render as x-middleware-request-*. */
const FORWARDED_TICKET = `x-middleware-request-${PAGE_SESSION_TICKET_HEADER}`;
const DOCUMENT = { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" };

/** The shared state, counting its lookups of a session's "ended" mark. */
class CountingSharedState extends InMemorySharedState {
  endedLookups = 0;
  override recall(key: string) {
    if (key.startsWith("session-ended:")) this.endedLookups += 1;
    return super.recall(key);
  }
}
let sharedState: CountingSharedState;

beforeEach(() => {
  sharedState = new CountingSharedState();
  setSharedStateForTests(sharedState);
});

afterEach(() => {
  vi.useRealTimers();
});

/** What the proxy answers for /courses, and the ticket it hands the render (null when it hands none). */
async function throughTheProxy(headers: Record<string, string>): Promise<{ response: Response; ticket: string | null }> {
  const response = await proxy(new NextRequest(`${TEST_APP_URL}/courses`, { headers }));
  return { response, ticket: response.headers.get(FORWARDED_TICKET) };
}

describe("the session the proxy hands a page render", () => {
  it("is the one it refreshed: the render gets the rotated tokens, once", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({
      json: { access_token: "at-1", token_type: "Bearer", expires_in: 7200, refresh_token: "rt-1", scope: "openid account:read" },
    }));
    const { ticket } = await throughTheProxy({ cookie: await sessionCookie(expiringSession()), ...DOCUMENT });
    expect(ticket).toMatch(/^[\w-]{22}$/);
    expect(takeHandedOffPageSession(ticket)).toMatchObject({ accessToken: "at-1", refreshToken: "rt-1" });
    // Good for one read: a replayed ticket opens nothing.
    expect(takeHandedOffPageSession(ticket)).toBeUndefined();
  });

  it("spares the render its own lookup of the session's ended mark: one per page view", async () => {
    site.handlers.set("POST /account/graphql", () => ({ status: 200, json: { errors: [{ message: "Internal server error" }] } }));
    const cookie = await sessionCookie(sessionData());
    sharedState.endedLookups = 0;
    const { ticket } = await throughTheProxy({ cookie, ...DOCUMENT });
    expect(sharedState.endedLookups).toBe(1);
    requestHeaders.current = new Headers({ cookie, [PAGE_SESSION_TICKET_HEADER]: ticket! });
    await CoursesPage({ searchParams: Promise.resolve({}) });
    expect(site.callsTo("/account/graphql")).toHaveLength(1);
    expect(sharedState.endedLookups).toBe(1);
  });

  it("is handed on a tab click's request too, which the proxy only checks", async () => {
    const session = sessionData();
    // Chromium's headers on the router's fetch: not a navigation, so the proxy checks and never refreshes.
    const { ticket } = await throughTheProxy({ cookie: await sessionCookie(session), "sec-fetch-dest": "empty", "sec-fetch-mode": "cors" });
    expect(takeHandedOffPageSession(ticket)?.sid).toBe(session.sid);
  });

  it("is never a ticket the request brought: without a session, the render gets no ticket at all", async () => {
    const { response, ticket } = await throughTheProxy({ [PAGE_SESSION_TICKET_HEADER]: "brought-by-the-request", ...DOCUMENT });
    expect(ticket).toBeNull();
    // Next.js keeps for the render only the request headers the proxy lists.
    expect(response.headers.get("x-middleware-override-headers")?.split(",")).not.toContain(PAGE_SESSION_TICKET_HEADER);
  });

  it("is not handed on when the session has ended: the render opens the cookie and finds no member", async () => {
    const session = sessionData();
    const cookie = await sessionCookie(session);
    await sharedState.remember(`session-ended:${session.sid}`, "1", 60_000);
    const { ticket } = await throughTheProxy({ cookie, ...DOCUMENT });
    expect(ticket).toBeNull();
    requestHeaders.current = new Headers({ cookie });
    expect(await readPageSession()).toEqual({ kind: "none" });
  });
});

describe("a page render given a ticket", () => {
  it("that names nothing (guessed, replayed or from another process) opens the cookie itself", async () => {
    const session = sessionData();
    requestHeaders.current = new Headers({ cookie: await sessionCookie(session), [PAGE_SESSION_TICKET_HEADER]: "A".repeat(22) });
    sharedState.endedLookups = 0;
    expect(await readPageSession()).toEqual({ kind: "member", session: expect.objectContaining({ sid: session.sid }) as unknown });
    expect(sharedState.endedLookups).toBe(1);
  });

  it("that names nothing, without a cookie, finds no member", async () => {
    requestHeaders.current = new Headers({ [PAGE_SESSION_TICKET_HEADER]: "A".repeat(22) });
    expect(await readPageSession()).toEqual({ kind: "none" });
  });
});

describe("tickets", () => {
  it("expire unread", () => {
    vi.useFakeTimers();
    const ticket = handOffPageSession(sessionData());
    vi.advanceTimersByTime(PAGE_SESSION_TICKET_TTL_MS);
    expect(takeHandedOffPageSession(ticket)).toBeUndefined();
  });

  it("hold a copy: what the proxy does with its session afterwards does not reach the render", () => {
    const session = sessionData({ accessToken: "handed" });
    const ticket = handOffPageSession(session);
    session.accessToken = "changed afterwards";
    expect(takeHandedOffPageSession(ticket)?.accessToken).toBe("handed");
  });

  it("are one memory for the process: the proxy's bundle hands off, the pages' bundle takes", async () => {
    const ticket = handOffPageSession(sessionData({ accessToken: "from the proxy's copy" }));
    const pages = await anotherBundlesCopy<typeof Handoff>("@/lib/session/page-session-handoff");
    expect(pages.takeHandedOffPageSession).not.toBe(takeHandedOffPageSession);
    expect(pages.takeHandedOffPageSession(ticket)?.accessToken).toBe("from the proxy's copy");
  });

  it("never read are at most PAGE_SESSION_TICKET_MAX_ENTRIES: the oldest go first", () => {
    const oldest = handOffPageSession(sessionData());
    for (let count = 0; count < PAGE_SESSION_TICKET_MAX_ENTRIES; count += 1) handOffPageSession(sessionData());
    expect(pendingPageSessionTickets()).toBe(PAGE_SESSION_TICKET_MAX_ENTRIES);
    expect(takeHandedOffPageSession(oldest)).toBeUndefined();
  });

  it("are random: no two alike", () => {
    const tickets = new Set(Array.from({ length: 1_000 }, () => handOffPageSession(sessionData())));
    expect(tickets.size).toBe(1_000);
    for (const ticket of tickets) takeHandedOffPageSession(ticket);
  });
});
