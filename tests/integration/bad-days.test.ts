import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { GET as connectionsRoute } from "@/app/api/account/connections/route";
import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { POST as revokeRoute } from "@/app/api/auth/revoke/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { forgetPageCapForTests, learnedPageCap } from "@/lib/account-api/paging";
import { resetSiteDateTimeWarningForTests } from "@/lib/account-api/site-date-time";
import { resetConfigForTests } from "@/lib/config";
import { PAGE_VIEW_DEADLINE_MS } from "@/lib/site/site-deadline";
import { fieldsMissingAtSite, forgetMissingFieldsForTests } from "@/lib/account-api/schema-fitting";
import { resetPublicToolsCacheForTests } from "@/lib/site/mcp-client";
import { isAccessEndingSoon } from "@/lib/format/access";
import type {
  Connections,
  CourseEnrollment,
  CoursesPage,
  EventRegistration,
  EventsPage,
  Order,
  OrdersPage,
  Overview,
} from "@/lib/types/account";
import { getAccountData } from "@/sandbox/data/account";
import { GRAPHQL_SERVERS } from "@/sandbox/knobs";
import { type RunningSandbox } from "@/sandbox/server";

import { captureLog } from "../support/captured-log";
import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, SAME_ORIGIN_HEADERS, signInThroughRoutes } from "../support/route-browser";
import { renewalClock } from "../support/renewal-clock";

let sandbox: RunningSandbox;
const kai = new RouteBrowser();
const maya = new RouteBrowser();

beforeAll(async () => {
  sandbox = await startSandboxForDashboard();
  await signInThroughRoutes(kai, { email: "kai@example.com" });
  await signInThroughRoutes(maya, { email: "maya@example.com" });
});
afterAll(async () => sandbox.close());
afterEach(() => {
  sandbox.reset();
  forgetPageCapForTests();
  forgetMissingFieldsForTests();
  resetPublicToolsCacheForTests();
});

async function page<T>(browser: RouteBrowser, path: string): Promise<{ status: number; body: T }> {
  const url = new URL(path, "http://x");
  const resource = url.pathname.split("/").pop() ?? "";
  const response = browser.absorb(await accountRoute(browser.request(path), { params: Promise.resolve({ resource }) }));
  return { status: response.status, body: (await response.json()) as T };
}

const graphqlRequests = () => sandbox.requests().filter((entry) => entry.endpoint === "graphql").length;

describe.each([10, 50, 100])("a site that caps `first` at %i", (cap) => {
  it("Overview considers all 130 enrollments; Courses, Orders and Events show their data", async () => {
    sandbox.setKnobs({ maxPageSize: cap });
    const overview = await page<Overview>(kai, "/api/account/overview");
    expect(overview.status).toBe(200);
    // Every one of Kai's courses whose access ends within 30 days, wherever it sits in the site's pages.
    const now = new Date();
    const endingSoon = getAccountData("kai@example.com", now.getTime()).enrollments.filter(
      (enrollment) =>
        enrollment.expireDate !== null && isAccessEndingSoon({ kind: "until", expiresAt: enrollment.expireDate.toISOString() }, now),
    );
    expect(endingSoon.length).toBeGreaterThan(0);
    expect(overview.body.endingSoon.map((course) => course.slug).sort()).toEqual(endingSoon.map((enrollment) => enrollment.slug).sort());
    expect(overview.body.coursesLeftOut).toBe(0);
    expect(overview.body.continueWatching.length).toBeGreaterThan(0);
    // The refusal is learned once: afterwards, no page asks for more than the cap.
    expect(learnedPageCap()).toBe(cap < 50 ? cap : undefined);

    const courses: CoursesPage["items"] = [];
    let cursor: string | null = null;
    do {
      const next: { status: number; body: CoursesPage } = await page<CoursesPage>(
        kai,
        `/api/account/courses${cursor ? `?after=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(next.status).toBe(200);
      expect(next.body.totalCount).toBe(130);
      courses.push(...next.body.items);
      cursor = next.body.nextCursor;
    } while (cursor);
    expect(new Set(courses.map((course) => course.slug)).size).toBeGreaterThan(1);
    expect(courses).toHaveLength(130);

    const orders = await page<OrdersPage>(maya, "/api/account/orders");
    expect(orders.status).toBe(200);
    expect(orders.body.items.length).toBe(Math.min(orders.body.totalCount, cap, 20));

    const events = await page<EventsPage>(maya, "/api/account/events");
    expect(events.status).toBe(200);
    expect(events.body.items).toHaveLength(events.body.totalCount);
    expect(events.body.nextCursor).toBeNull();
  });
});

describe("a site whose cap is below the dashboard's page size", () => {
  it("retries once with the maximum the error names, then remembers it for the process", async () => {
    sandbox.setKnobs({ maxPageSize: 10 });
    sandbox.resetRequests();
    await page<OrdersPage>(maya, "/api/account/orders");
    // The refused size, then the same page at the maximum the error named.
    expect(graphqlRequests()).toBe(2);
    sandbox.resetRequests();
    const second = await page<OrdersPage>(maya, "/api/account/orders");
    expect(second.body.items).toHaveLength(Math.min(10, second.body.totalCount));
    expect(graphqlRequests()).toBe(1);
  });

  it("follows pageInfo for Events: upcoming and past are split across pages", async () => {
    sandbox.setKnobs({ maxPageSize: 1 });
    const events = await page<EventsPage>(maya, "/api/account/events");
    expect(events.status).toBe(200);
    expect(events.body.items).toHaveLength(events.body.totalCount);
    expect(events.body.totalCount).toBeGreaterThan(1);
  });
});

/**
 * A site that prices queries (graphql-ruby's max_complexity, Hot Chocolate's cost analysis, graphql-java's
 * MaxQueryComplexityInstrumentation, graphql-query-complexity): a connection costs its `first` times what it
 * selects, so the dashboard's modest pages may still cost more than the site allows. Each server refuses
 * in its own words; the dashboard lowers its page size once for the process and every page shows its data.
 */
describe.each(GRAPHQL_SERVERS)("a site that limits what a query may cost, on %s", (graphqlServer) => {
  it("every page shows all its data, read in smaller pages learned from the first refusal", async () => {
    // Costs at pages of 50: Courses 802, Orders 902, Overview 1,605 (sandbox/account-graphql.ts queryCost).
    sandbox.setKnobs({ graphqlMaxCost: 500, graphqlServer });
    sandbox.resetRequests();
    // Maya's courses and events fit in one page of the Overview's query.
    const overview = await page<Overview>(maya, "/api/account/overview");
    expect(overview.status).toBe(200);
    expect(overview.body.coursesLeftOut).toBe(0);
    const cap = learnedPageCap();
    expect(cap).toBeGreaterThanOrEqual(10);
    expect(cap).toBeLessThan(50);
    // The refused query, then at most two smaller ones (one more when the first was still over the limit).
    expect(graphqlRequests()).toBeGreaterThanOrEqual(2);
    expect(graphqlRequests()).toBeLessThanOrEqual(3);

    sandbox.resetRequests();
    const orders = await page<OrdersPage>(maya, "/api/account/orders");
    expect(orders.status).toBe(200);
    expect(orders.body.items.length).toBe(Math.min(orders.body.totalCount, 20));
    const events = await page<EventsPage>(maya, "/api/account/events");
    expect(events.body.items).toHaveLength(events.body.totalCount);
    const courses = await page<CoursesPage>(kai, "/api/account/courses");
    expect(courses.status).toBe(200);
    expect(courses.body.items.length).toBeGreaterThan(0);
    // Learned once for the process: no later page was refused (each answered, and nothing more was learned).
    expect(learnedPageCap()).toBe(cap);
  });

  it("a limit no page size meets: the page says the site could not answer, after at most three asks", async () => {
    sandbox.setKnobs({ graphqlMaxCost: 5, graphqlServer });
    sandbox.resetRequests();
    const orders = await page<{ error: { code: string } }>(maya, "/api/account/orders");
    expect(orders.status).toBe(502);
    expect(orders.body.error.code).toBe("query_failed");
    expect(graphqlRequests()).toBeLessThanOrEqual(3);
  });
});

// Shopify's schema and graphql-ruby's BigDecimal write amounts of money as a Decimal scalar, a string.
describe.each([false, true])("a site whose amounts are strings: %s", (decimalAmounts) => {
  it("Orders shows every order's amount, refund and line items as the site holds them", async () => {
    sandbox.setKnobs({ decimalAmounts });
    const orders = await page<OrdersPage>(maya, "/api/account/orders");
    expect(orders.status).toBe(200);
    const held = new Map(getAccountData("maya@example.com", Date.now()).orders.map((order) => [order.id, order]));
    expect(orders.body.items.length).toBeGreaterThan(0);
    for (const order of orders.body.items) {
      const site = held.get(order.id);
      expect(order.amount).toBe(site?.amount);
      expect(order.refundedAmount).toBe(site?.refundedAmount);
      expect(order.lineItems.map((item) => item.amount)).toEqual(site?.lineItems.map((item) => item.amount));
    }
    expect(orders.body.items.some((order) => order.refundedAmount !== null)).toBe(true);
  });
});

describe("a site whose cursors are long (signed or encrypted)", () => {
  it.each([600, 3000, 7000])("Orders goes on page after page with cursors of %i characters", async (length) => {
    // Pages of two: Maya's orders take three, the second and third asked for with the cursor the browser holds.
    sandbox.setKnobs({ maxPageSize: 2, cursorMinLength: length });
    const orders: OrdersPage["items"] = [];
    let cursor: string | null = null;
    for (let round = 0; round === 0 || cursor; round += 1) {
      const next: { status: number; body: OrdersPage } = await page<OrdersPage>(
        maya,
        `/api/account/orders${cursor ? `?after=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(next.status).toBe(200);
      orders.push(...next.body.items);
      cursor = next.body.nextCursor;
      if (cursor) expect(cursor.length).toBeGreaterThanOrEqual(length);
    }
    const total = getAccountData("maya@example.com", Date.now()).orders.length;
    expect(total).toBeGreaterThan(2);
    expect(new Set(orders.map((order) => order.id)).size).toBe(total);
  });
});

describe("a site that hangs", () => {
  it("each data route answers within the page view's deadline with site_timeout, and sends the query once", async () => {
    sandbox.setKnobs({ latencyMs: PAGE_VIEW_DEADLINE_MS + 5_000 });
    sandbox.resetRequests();
    const started = performance.now();
    const overview = await page<{ error: { code: string } }>(kai, "/api/account/overview");
    const elapsed = performance.now() - started;
    expect(overview.status).toBe(504);
    expect(overview.body.error.code).toBe("site_timeout");
    expect(elapsed).toBeLessThan(10_000);
    expect(elapsed).toBeGreaterThanOrEqual(PAGE_VIEW_DEADLINE_MS - 100);
    expect(graphqlRequests()).toBe(1);
  }, 20_000);
});

describe("a site too slow to read every page of Kai's 130 courses within the page view's deadline", () => {
  it("Courses shows the courses read in time with the way on, and Overview says how many it left out", async () => {
    // 10 per page, 1 s each: 13 pages do not fit in the 8 s deadline.
    sandbox.setKnobs({ maxPageSize: 10, latencyMs: 1_000 });
    const courses = await page<CoursesPage>(kai, "/api/account/courses");
    expect(courses.status).toBe(200);
    expect(courses.body.items.length).toBeGreaterThan(0);
    expect(courses.body.items.length).toBeLessThan(130);
    expect(courses.body.nextCursor).not.toBeNull();
    const overview = await page<Overview>(kai, "/api/account/overview");
    expect(overview.status).toBe(200);
    expect(overview.body.coursesLeftOut).toBeGreaterThan(0);
  }, 30_000);
});

describe("a site that rate-limits its OAuth endpoints (429 with an OAuth error body)", () => {
  const busy = { mode: "status", status: 429, error: "invalid_request" } as const;
  const { comeBackWhenRenewalIsDue } = renewalClock();

  it("a refresh keeps the session (503: the site is busy, try again after its wait), and the next one goes through", async () => {
    sandbox.setKnobs({ accessTokenTtlSeconds: 20 });
    const member = new RouteBrowser();
    await signInThroughRoutes(member, { email: "maya@example.com" });
    comeBackWhenRenewalIsDue(20);
    sandbox.setKnobs({ failures: { token: busy } });
    const refused = await page<{ error: { code: string; retryAfterSeconds?: number } }>(member, "/api/account/courses");
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: "site_busy", retryAfterSeconds: 1 });
    sandbox.setKnobs({ failures: { token: null } });
    expect((await page<CoursesPage>(member, "/api/account/courses")).status).toBe(200);
  });

  it("a revocation keeps the session and says the site could not be reached; a sign-in says the site is unavailable", async () => {
    const member = new RouteBrowser();
    await signInThroughRoutes(member, { email: "maya@example.com" });
    sandbox.setKnobs({ failures: { revoke: busy, token: busy } });
    const revoke = member.absorb(await revokeRoute(member.request("/api/auth/revoke", { method: "POST", headers: SAME_ORIGIN_HEADERS })));
    expect(revoke.status).toBe(503);
    expect(await revoke.json()).toMatchObject({ error: { code: "revocation_unavailable" } });
    expect((await sessionRoute(member.request("/api/session"))).status).toBe(200);

    const signIn = await signInThroughRoutes(new RouteBrowser(), { email: "kai@example.com" });
    const problem = new URL(signIn.headers.get("location")!);
    expect(problem.pathname).toBe("/sign-in-problem");
    expect(problem.searchParams.get("code")).toBe("site_unavailable");
    // Busy, not down: the page says the site is busy, for the second it asked.
    expect(problem.searchParams.get("detail")).toBe("site_busy");
    expect(problem.searchParams.get("retryAfter")).toBe("1");
  });
});

describe("a site that answers too much", () => {
  it("stops reading a GraphQL answer past 2 MiB and says the answer is too large", async () => {
    sandbox.setKnobs({ answerPaddingBytes: { graphql: 10 * 1024 * 1024 } });
    const courses = await page<{ error: { code: string } }>(maya, "/api/account/courses");
    expect(courses.status).toBe(502);
    expect(courses.body.error.code).toBe("answer_too_large");
  });

  it("an MCP answer past 1 MiB: the panel says the server answered too much", async () => {
    sandbox.setMcpConnectionsBeta(true);
    sandbox.setKnobs({ answerPaddingBytes: { mcp: 10 * 1024 * 1024 } });
    const response = maya.absorb(await connectionsRoute(maya.request("/api/account/connections")));
    expect(response.status).toBe(200);
    expect((await response.json()) as Connections).toMatchObject({ available: false, reason: "too_large" });
  });
});

describe("a site whose dates and times have no offset, or write it +0800", () => {
  const RESOURCES = ["overview", "courses", "orders", "events"] as const;
  const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;

  /** Every date and time in an answer, by where it is, as `read` gives it. */
  function datesIn<T>(value: unknown, read: (dateTime: string) => T, path = "", found: Record<string, T> = {}): Record<string, T> {
    if (typeof value === "string" && DATE_TIME.test(value)) found[path] = read(value);
    else if (Array.isArray(value)) value.forEach((item, index) => datesIn(item, read, `${path}/${index}`, found));
    else if (value && typeof value === "object")
      for (const [key, item] of Object.entries(value)) datesIn(item, read, `${path}/${key}`, found);
    return found;
  }
  /** The instants they name, read here (this process's zone). */
  const instantsIn = (value: unknown) => datesIn(value, Date.parse);
  /** Their dates and wall-clock times as written (an all-day event's days are read so: lib/format/events.ts). */
  const writtenIn = (value: unknown) => datesIn(value, (dateTime) => dateTime.slice(0, 16));
  const withoutOffsetIn = (value: unknown) => JSON.stringify(value).match(/"\d{4}-\d{2}-\d{2}T[\d:.]+"/g) ?? [];

  async function answers(): Promise<Record<string, unknown>> {
    const read: Record<string, unknown> = {};
    for (const resource of RESOURCES) {
      const answer = await page<unknown>(maya, `/api/account/${resource}`);
      expect(answer.status).toBe(200);
      read[resource] = answer.body;
    }
    return read;
  }
  afterEach(() => {
    delete process.env.SITE_TIME_ZONE;
    resetConfigForTests();
    resetSiteDateTimeWarningForTests();
  });

  it("reads them in SITE_TIME_ZONE and passes them on in UTC: the same instants as a site that sends its offset", async () => {
    const withOffsets = await answers();
    expect(Object.keys(instantsIn(withOffsets)).length).toBeGreaterThan(10);

    sandbox.setKnobs({ dateTimesWithoutOffset: true });
    process.env.SITE_TIME_ZONE = "Asia/Taipei";
    resetConfigForTests();
    const log = captureLog();
    const withoutOffsets = await answers();
    expect(instantsIn(withoutOffsets)).toEqual(instantsIn(withOffsets));
    expect(writtenIn(withoutOffsets)).toEqual(writtenIn(withOffsets));
    // Nothing a browser in another zone than the server's would read as another time.
    expect(withoutOffsetIn(withoutOffsets)).toEqual([]);
    expect(log.events().filter((event) => event.event === "site_date_without_offset")).toEqual([]);
  });

  it("an offset written +0800 (PHP's DATE_ISO8601) is passed on as +08:00: the answers are the offset site's, byte for byte", async () => {
    const withOffsets = await answers();
    sandbox.setKnobs({ dateTimesBasicOffset: true });
    expect(await answers()).toEqual(withOffsets);
  });

  it("without SITE_TIME_ZONE, reads them as UTC and says so once per process", async () => {
    const withOffsets = await answers();
    sandbox.setKnobs({ dateTimesWithoutOffset: true });
    const log = captureLog();
    const asUtc = await answers();
    const shifted = Object.fromEntries(Object.entries(instantsIn(withOffsets)).map(([path, instant]) => [path, instant + 8 * 3600_000]));
    expect(instantsIn(asUtc)).toEqual(shifted);
    expect(writtenIn(asUtc)).toEqual(writtenIn(withOffsets));
    expect(withoutOffsetIn(asUtc)).toEqual([]);
    expect(log.events().filter((event) => event.event === "site_date_without_offset")).toEqual([
      expect.objectContaining({ readAs: "UTC", setting: "SITE_TIME_ZONE" }),
    ]);
  });
});

// Each GraphQL server words "no such field" its own way: the dashboard learns the missing fields from every one.
describe.each(GRAPHQL_SERVERS)("a site with only the seed's fields, on %s", (graphqlServer) => {
  it("Overview and Courses render what they can, with Resume; Orders and Events say the site could not answer", async () => {
    sandbox.setKnobs({ graphqlSeedFieldsOnly: true, graphqlServer });
    const overview = await page<Overview>(maya, "/api/account/overview");
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({ name: "maya@example.com", upcomingEvents: null });
    expect(overview.body.continueWatching[0]?.lastWatched?.resumeUrl).toMatch(/\/courses\/[\w-]+\/lectures\/[\w-]+\?t=\d+$/);
    expect(overview.body.continueWatching[0]).toMatchObject({ imageUrl: null, completionPercentage: null });
    expect(fieldsMissingAtSite()).toEqual(
      expect.arrayContaining(["Viewer.name", "Viewer.eventRegistrations", "EnrolledCourse.imageUrl", "EnrolledCourseConnection.pageInfo"]),
    );

    sandbox.resetRequests();
    const courses = await page<CoursesPage>(maya, "/api/account/courses");
    expect(courses.status).toBe(200);
    expect(courses.body.items.length).toBeGreaterThan(0);
    expect(courses.body.items.some((course) => course.lastWatched?.resumeUrl)).toBe(true);
    // Learned once for the process: the Courses query goes out already without the missing fields.
    expect(graphqlRequests()).toBe(1);

    for (const resource of ["orders", "events"]) {
      const refused = await page<{ error: { code: string } }>(maya, `/api/account/${resource}`);
      expect(refused.status).toBe(502);
      expect(refused.body.error.code).toBe("query_failed");
    }
  });
});

describe("a site whose backend fails for one field (GraphQL partial results)", () => {
  type Case = { field: string; resource: string; operation: string; read: (item: never) => unknown; without: (item: never) => unknown };
  it.each<Case>([
    {
      field: "EnrolledCourse.name",
      resource: "courses",
      operation: "DashboardCourses",
      read: (course: CourseEnrollment) => course.name,
      without: (course: CourseEnrollment) => course.slug,
    },
    {
      field: "EnrolledCourse.completionPercentage",
      resource: "courses",
      operation: "DashboardCourses",
      read: (course: CourseEnrollment) => course.completionPercentage,
      without: () => null,
    },
    {
      field: "Order.paymentUrl",
      resource: "orders",
      operation: "DashboardOrders",
      read: (order: Order) => order.paymentUrl,
      without: () => null,
    },
    {
      field: "Event.location",
      resource: "events",
      operation: "DashboardEvents",
      read: (registration: EventRegistration) => registration.event.location,
      without: () => null,
    },
  ])("$resource keeps every item without $field, asks once, and tells the operator which field", async (scenario) => {
    const { field, resource, operation } = scenario;
    const read = scenario.read as (item: unknown) => unknown;
    const without = scenario.without as (item: unknown) => unknown;
    const whole = await page<{ items: unknown[] }>(maya, `/api/account/${resource}`);
    expect(whole.body.items.some((item) => read(item) !== without(item))).toBe(true);

    sandbox.setKnobs({ graphqlFieldErrors: [field] });
    sandbox.resetRequests();
    const log = captureLog();
    const partial = await page<{ items: unknown[] }>(maya, `/api/account/${resource}`);
    expect(partial.status).toBe(200);
    expect(partial.body.items).toHaveLength(whole.body.items.length);
    expect(partial.body.items.every((item) => read(item) === without(item))).toBe(true);
    expect(graphqlRequests()).toBe(1);
    const told = log.events().filter((event) => event.event === "account_api_partial_answer");
    expect(told).toEqual([
      expect.objectContaining({
        level: "warn",
        endpoint: `graphql ${operation}`,
        failedFields: [field],
        siteErrorMessage: "Internal server error",
      }),
    ]);
    // Where it failed, never what the site holds.
    const values = whole.body.items.map(read).filter((value): value is string => typeof value === "string");
    for (const value of values) expect(log.text()).not.toContain(value);
  });

  it.each(["EnrolledCourse.lastWatchedLecture", "LastWatchedLecture.lectureId"])(
    "courses and the overview keep where each course was left off as unknown when %s fails, never as never opened",
    async (field) => {
      const whole = await page<{ items: CourseEnrollment[] }>(maya, "/api/account/courses");
      const watched = whole.body.items.filter((course) => course.lastWatched !== null);
      expect(watched.length).toBeGreaterThan(0);
      const overviewWhole = await page<Overview>(maya, "/api/account/overview");
      expect(overviewWhole.body.continueWatching.length).toBeGreaterThan(0);

      sandbox.setKnobs({ graphqlFieldErrors: [field] });
      const log = captureLog();
      const partial = await page<{ items: CourseEnrollment[] }>(maya, "/api/account/courses");
      expect(partial.status).toBe(200);
      expect(partial.body.items.map((course) => course.slug)).toEqual(whole.body.items.map((course) => course.slug));
      for (const course of partial.body.items) {
        const before = whole.body.items.find((candidate) => candidate.slug === course.slug)!;
        expect(course.lastWatched).toBeNull();
        // A field that fails for every course it resolves: a course begun is unknown, never "never opened"; at 0 %
        // the site says it was never started.
        if (before.lastWatched && before.completionPercentage !== 0) expect(course.lastWatchedUnknown).toBe(true);
        if (course.completionPercentage === 0) expect(course.lastWatchedUnknown).toBeUndefined();
      }
      const overview = await page<Overview>(maya, "/api/account/overview");
      expect(overview.status).toBe(200);
      expect(overview.body.continueWatching).toEqual([]);
      expect(overview.body.continueWatchingUnknown).toBeGreaterThanOrEqual(overviewWhole.body.continueWatching.length);
      expect(log.events().filter((event) => event.event === "account_api_partial_answer")).toEqual([
        expect.objectContaining({ failedFields: [field] }),
        expect.objectContaining({ failedFields: [field] }),
      ]);
    },
  );

  it("says the site could not answer for a field the page needs (a course without its slug cannot be shown)", async () => {
    sandbox.setKnobs({ graphqlFieldErrors: ["EnrolledCourse.slug"] });
    const refused = await page<{ error: { code: string } }>(maya, "/api/account/courses");
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe("query_failed");
  });

  it("asks once more without an optional field the site declares non-null (its error nulls the whole list)", async () => {
    const whole = await page<OrdersPage>(maya, "/api/account/orders");
    sandbox.setKnobs({ graphqlFieldErrors: ["Order.lineItems"] });
    sandbox.resetRequests();
    const log = captureLog();
    const orders = await page<OrdersPage>(maya, "/api/account/orders");
    expect(orders.status).toBe(200);
    expect(orders.body.items.map((order) => order.id)).toEqual(whole.body.items.map((order) => order.id));
    expect(graphqlRequests()).toBe(2);
    expect(log.events()).toContainEqual(
      expect.objectContaining({ event: "account_api_partial_answer", failedFields: ["Order.lineItems"] }),
    );
  });

  it.each(["Viewer.eventRegistrations", "EventRegistration.event"])(
    "the overview shows the courses and says the events could not be loaded when %s fails",
    async (field) => {
      const whole = await page<Overview>(maya, "/api/account/overview");
      expect(whole.body.continueWatching.length).toBeGreaterThan(0);
      sandbox.setKnobs({ graphqlFieldErrors: [field] });
      captureLog();
      const overview = await page<Overview>(maya, "/api/account/overview");
      expect(overview.status).toBe(200);
      expect(overview.body).toMatchObject({
        name: whole.body.name,
        continueWatching: whole.body.continueWatching,
        endingSoon: whole.body.endingSoon,
        upcomingEvents: null,
        upcomingEventsFailed: true,
      });
      // On a site that does not have the registrations at all, the overview says so instead (not "failed").
      sandbox.setKnobs({ graphqlFieldErrors: [], graphqlMissingFields: ["eventRegistrations"] });
      forgetMissingFieldsForTests();
      const without = await page<Overview>(maya, "/api/account/overview");
      expect(without.body.upcomingEvents).toBeNull();
      expect(without.body).not.toHaveProperty("upcomingEventsFailed");
    },
  );
});
