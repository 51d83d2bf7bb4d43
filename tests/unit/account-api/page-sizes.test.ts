import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { COURSES_OPERATION } from "@/lib/account-api/pages/courses";
import { EVENTS_OPERATION } from "@/lib/account-api/pages/events";
import { ORDERS_OPERATION } from "@/lib/account-api/pages/orders";
import { OVERVIEW_OPERATION } from "@/lib/account-api/pages/overview";
import { sealPageCursor } from "@/lib/account-api/page-cursor";
import { forgetPageCapForTests } from "@/lib/account-api/paging";
import { ACCOUNT_PAGES, loadAccountPage, type AccountPageKey } from "@/lib/account-api/registry";

import { configureDashboard } from "../../support/env";
import { setUpFakeSite, type RecordedCall } from "../../support/fake-site";

/**
 * The page sizes the dashboard really sends. No site's cap is assumed (docs/architecture.md section 5):
 * every `first` asked for is a modest page, 1 to 50, whatever page is loaded and however far it pages.
 */
const MODEST_MAXIMUM = 50;
const PAGES_PER_CONNECTION = 3;

const site = setUpFakeSite();

beforeAll(() => {
  configureDashboard(site.url);
});
beforeEach(() => {
  forgetPageCapForTests();
  site.handlers.set("POST /account/graphql", answerEveryConnection);
});

/** A site whose connections hold exactly as many items as asked for, for three pages. */
function answerEveryConnection(call: RecordedCall) {
  const variables = (call.body as { variables?: Record<string, unknown> }).variables ?? {};
  const after = typeof variables.after === "string" ? Number(variables.after) : 0;
  const connection = <T>(first: unknown, node: (index: number) => T) => {
    const count = typeof first === "number" ? first : 0;
    return {
      nodes: Array.from({ length: count }, (_, index) => node(after * 1000 + index)),
      pageInfo: { hasNextPage: after + 1 < PAGES_PER_CONNECTION, endCursor: String(after + 1) },
      totalCount: count * PAGES_PER_CONNECTION,
    };
  };
  const course = (index: number) => ({ slug: `course-${index}`, expireDate: null, hasLifetimeAccess: true, lastWatchedLecture: null });
  const registration = (index: number) => ({
    id: `r${index}`,
    state: "enrolled",
    registeredAt: "2026-01-01T00:00:00Z",
    event: {
      id: `e${index}`,
      title: "Event",
      startTime: "2027-01-01T10:00:00Z",
      endTime: null,
      isAllDay: false,
      location: null,
      url: null,
    },
  });
  return {
    json: {
      data: {
        viewer: {
          id: "member-1",
          email: "member@example.com",
          name: "Member",
          enrolledCourses: connection(variables.first ?? variables.coursesFirst, course),
          eventRegistrations: connection(variables.first ?? variables.eventsFirst, registration),
          orders: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 },
        },
      },
    },
  };
}

const operationNameOf = (document: string) => /\bquery\s+(\w+)/.exec(document)?.[1];

/** Each Account API request sent: its variables and the page-size variables its operation declares. */
function sentRequests(): { variables: Record<string, unknown>; pageSizeVariables: readonly string[] }[] {
  return site.callsTo("/account/graphql").map((call) => {
    const body = call.body as { query: string; variables?: Record<string, unknown> };
    const operation = [OVERVIEW_OPERATION, COURSES_OPERATION, ORDERS_OPERATION, EVENTS_OPERATION].find(
      (candidate) => operationNameOf(candidate.document) === operationNameOf(body.query),
    );
    return { variables: body.variables ?? {}, pageSizeVariables: operation?.pageSizeVariables ?? [] };
  });
}

describe("page sizes the dashboard asks the site for", () => {
  it.each(Object.keys(ACCOUNT_PAGES) as AccountPageKey[])("%s: every number sent is a declared page size between 1 and 50", async (key) => {
    const member = { accessToken: "access-token", claims: { sub: "member-1" } };
    await loadAccountPage(key, member);
    await loadAccountPage(key, member, await sealPageCursor("1", { page: key, member: member.claims.sub }));
    const sent = sentRequests();
    expect(sent.length).toBeGreaterThanOrEqual(2);
    // Every request is one of the pages' named operations (none unknown, none sent without a page size).
    for (const { pageSizeVariables } of sent) expect(pageSizeVariables.length).toBeGreaterThan(0);
    for (const { variables, pageSizeVariables } of sent) {
      for (const [name, value] of Object.entries(variables)) {
        if (typeof value !== "number") continue;
        // A number its operation does not declare as a page size would escape the site's learned cap.
        expect(pageSizeVariables).toContain(name);
        expect(Number.isInteger(value)).toBe(true);
        expect(value).toBeGreaterThanOrEqual(1);
        expect(value).toBeLessThanOrEqual(MODEST_MAXIMUM);
      }
    }
  });
});
