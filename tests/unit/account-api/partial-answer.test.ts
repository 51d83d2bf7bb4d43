/**
 * GraphQL partial results: a site whose backend fails for one field answers the rest, that field null and
 * an error naming its path. What the dashboard keeps of such an answer, and what it refuses.
 */
import { parse, visit } from "graphql";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

import { coverSourcesOf } from "@/lib/account-api/cover-url";
import { runAccountOperation } from "@/lib/account-api/client";
import { optionalFields, type AccountOperation } from "@/lib/account-api/operation";
import { forgetPageCapForTests, learnedPageCap } from "@/lib/account-api/paging";
import { RAW_ENROLLED_COURSE } from "@/lib/account-api/fragments";
import { FIELD_UNKNOWN, keptPartialAnswer, MAX_FIELD_PATH_LENGTH, optionalFieldsOnErrorPaths } from "@/lib/account-api/partial-answer";
import { reshapeEnrolledCourse } from "@/lib/account-api/reshape";
import { COURSES_DOCUMENT, COURSES_OPERATION } from "@/lib/account-api/pages/courses";
import { EVENTS_DOCUMENT } from "@/lib/account-api/pages/events";
import { ORDERS_DOCUMENT } from "@/lib/account-api/pages/orders";
import { loadOverview, OVERVIEW_DOCUMENT } from "@/lib/account-api/pages/overview";
import { fieldsMissingAtSite, forgetMissingFieldsForTests } from "@/lib/account-api/schema-fitting";
import { resetConfigForTests } from "@/lib/config";

import { captureLog } from "../../support/captured-log";
import { configureDashboard } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";

const site = setUpFakeSite({ idTokens: false });
beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
});
afterEach(() => forgetPageCapForTests());

const OPTIONAL = optionalFields();

function courses(...nodes: Record<string, unknown>[]) {
  return { viewer: { enrolledCourses: { nodes, pageInfo: { hasNextPage: false, endCursor: null }, totalCount: nodes.length } } };
}

const course = (slug: string, extra: Record<string, unknown> = {}) => ({
  slug,
  name: `Course ${slug}`,
  expireDate: null,
  hasLifetimeAccess: true,
  completionPercentage: 40,
  lastWatchedLecture: null,
  ...extra,
});

const SITE_LINKS = {
  siteUrl: "https://school.example.com",
  lectureUrlTemplate: "{site}/courses/{slug}/lectures/{lectureId}",
  covers: coverSourcesOf({
    appUrl: "https://dashboard.example.com",
    siteUrl: "https://school.example.com",
    siteImageOrigins: [],
    secureCookies: true,
  }),
};

const failedAt = (...path: (string | number)[]) => ({ message: "Internal server error", path });

describe("a partial answer", () => {
  it("keeps the answer without an optional field the site failed to give, for that item only", () => {
    const data = courses(course("a"), course("b", { name: null }), course("c"));
    const kept = keptPartialAnswer(data, [failedAt("viewer", "enrolledCourses", "nodes", 1, "name")], OPTIONAL);
    expect(kept?.failedFields).toEqual(["EnrolledCourse.name"]);
    const nodes = kept?.data.viewer as { enrolledCourses: { nodes: Record<string, unknown>[] } };
    expect(nodes.enrolledCourses.nodes.map((node) => node.name)).toEqual(["Course a", undefined, "Course c"]);
    expect("name" in nodes.enrolledCourses.nodes[1]!).toBe(false);
  });

  it("names each failed field once, however many items it failed for", () => {
    const data = courses(course("a", { completionPercentage: null, name: null }), course("b", { completionPercentage: null }));
    const errors = [
      failedAt("viewer", "enrolledCourses", "nodes", 0, "completionPercentage"),
      failedAt("viewer", "enrolledCourses", "nodes", 0, "name"),
      failedAt("viewer", "enrolledCourses", "nodes", 1, "completionPercentage"),
    ];
    expect(keptPartialAnswer(data, errors, OPTIONAL)?.failedFields).toEqual(["EnrolledCourse.completionPercentage", "EnrolledCourse.name"]);
  });

  it("keeps where a course was left off as unknown, never as its null (which reads as never opened)", () => {
    const data = courses(course("a"), course("b"));
    const kept = keptPartialAnswer(data, [failedAt("viewer", "enrolledCourses", "nodes", 1, "lastWatchedLecture")], OPTIONAL);
    expect(kept?.failedFields).toEqual(["EnrolledCourse.lastWatchedLecture"]);
    const nodes = (kept?.data.viewer as { enrolledCourses: { nodes: Record<string, unknown>[] } }).enrolledCourses.nodes;
    expect(nodes.map((node) => node.lastWatchedLecture)).toEqual([null, FIELD_UNKNOWN]);
    // Checked like any answer, then read: the first never opened, the second unknown.
    const checked = nodes.map((node) => RAW_ENROLLED_COURSE.parse(node));
    expect(checked.map((node) => reshapeEnrolledCourse(node, SITE_LINKS).lastWatchedUnknown)).toEqual([undefined, true]);
  });

  it("keeps it as unknown when the null came from one of its own non-null fields (a lecture's id failed)", () => {
    const data = courses(course("a"));
    const errors = [
      failedAt("viewer", "enrolledCourses", "nodes", 0, "lastWatchedLecture", "lectureId"),
      failedAt("viewer", "enrolledCourses", "nodes", 0, "lastWatchedLecture", "title"),
    ];
    const kept = keptPartialAnswer(data, errors, OPTIONAL);
    expect(kept?.failedFields).toEqual(["LastWatchedLecture.lectureId", "LastWatchedLecture.title"]);
    const nodes = (kept?.data.viewer as { enrolledCourses: { nodes: Record<string, unknown>[] } }).enrolledCourses.nodes;
    expect(nodes[0]?.lastWatchedLecture).toBe(FIELD_UNKNOWN);
  });

  it("never reads a site's value as unknown: only a failed field becomes one", () => {
    for (const lastWatchedLecture of ["unknown", {}, String(FIELD_UNKNOWN), undefined]) {
      expect(RAW_ENROLLED_COURSE.safeParse(course("a", { lastWatchedLecture })).success, JSON.stringify(lastWatchedLecture)).toBe(false);
    }
  });

  it("refuses an optional field whose null came from a non-null field under it: the page would say the site lacks it", () => {
    const data = {
      viewer: { id: "1", email: "maya@example.com", enrolledCourses: courses().viewer.enrolledCourses, eventRegistrations: null },
    };
    const errors = [failedAt("viewer", "eventRegistrations", "nodes", 0, "event", "title")];
    expect(keptPartialAnswer(data, errors, optionalFields("Viewer.eventRegistrations"))).toBeUndefined();
  });

  it("refuses an optional field the operation does not list as optional", () => {
    const data = courses(course("a", { name: null }));
    expect(keptPartialAnswer(data, [failedAt("viewer", "enrolledCourses", "nodes", 0, "name")], new Set())).toBeUndefined();
  });

  it("keeps a list whose item the error nulled (a site whose items are nullable): the item stays null for the list to count", () => {
    const data = courses(course("a"), null as never, course("c"));
    const kept = keptPartialAnswer(data, [failedAt("viewer", "enrolledCourses", "nodes", 1, "slug")], OPTIONAL);
    expect(kept?.failedFields).toEqual(["EnrolledCourse.slug"]);
    expect(kept?.itemsLeftOut).toBe(1);
    const nodes = (kept?.data.viewer as { enrolledCourses: { nodes: unknown[] } }).enrolledCourses.nodes;
    expect(nodes.map((node) => (node as { slug?: string } | null)?.slug ?? null)).toEqual(["a", null, "c"]);
  });

  it("counts each item left out once, however many of its fields failed", () => {
    const data = courses(null as never, course("b"), null as never);
    const errors = [
      failedAt("viewer", "enrolledCourses", "nodes", 0, "slug"),
      failedAt("viewer", "enrolledCourses", "nodes", 0, "hasLifetimeAccess"),
      failedAt("viewer", "enrolledCourses", "nodes", 2, "slug"),
    ];
    const kept = keptPartialAnswer(data, errors, OPTIONAL);
    expect(kept).toMatchObject({ failedFields: ["EnrolledCourse.hasLifetimeAccess", "EnrolledCourse.slug"], itemsLeftOut: 2 });
    // Fields failed inside items that stay are no item left out.
    expect(
      keptPartialAnswer(courses(course("a", { name: null })), [failedAt("viewer", "enrolledCourses", "nodes", 0, "name")], OPTIONAL),
    ).toMatchObject({ itemsLeftOut: 0 });
  });

  it("refuses a null item of a list that is not a connection's items (an order's line items are the order)", () => {
    const order = { id: "o1", tradeNo: "T1", state: "paid", currency: "TWD", amount: 1, createdAt: "2026-11-01T00:00:00+08:00" };
    const data = { viewer: { orders: { nodes: [{ ...order, lineItems: [null] }] } } };
    expect(keptPartialAnswer(data, [failedAt("viewer", "orders", "nodes", 0, "lineItems", 0, "name")], OPTIONAL)).toBeUndefined();
  });

  it("refuses an answer whose null reached past the field (a non-null field's error nulls its parent)", () => {
    const errors = [failedAt("viewer", "orders", "nodes", 0, "lineItems")];
    expect(keptPartialAnswer({ viewer: null }, errors, OPTIONAL)).toBeUndefined();
    expect(keptPartialAnswer(null, errors, OPTIONAL)).toBeUndefined();
  });

  it.each([
    ["no path", { message: "Internal server error" }],
    ["a path that ends in an index", failedAt("viewer", "enrolledCourses", "nodes", 0)],
    ["a path the schema does not know", failedAt("viewer", "enrolledCourses", "nodes", 0, "shoeSize")],
    ["a path to a value that is not null", failedAt("viewer", "enrolledCourses", "nodes", 0, "name")],
    ["a path past the answer", failedAt("viewer", "enrolledCourses", "nodes", 5, "name")],
  ])("refuses an error with %s", (_name, error) => {
    expect(keptPartialAnswer(courses(course("a")), [error], OPTIONAL)).toBeUndefined();
  });

  it("refuses an error whose path is deeper than any field asked for without walking it (the site's path costs nothing)", () => {
    let reads = 0;
    const path = new Proxy(
      Array.from({ length: 2_000 }, (_, index) => (index % 2 === 0 ? "viewer" : 0)),
      {
        get(target, key, receiver) {
          if (typeof key === "string" && /^\d+$/.test(key)) reads += 1;
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
    expect(keptPartialAnswer(courses(course("a")), [{ message: "Internal server error", path }], OPTIONAL)).toBeUndefined();
    // Walked from the root at each step, as for a path of a field asked for, it would be read millions of times.
    expect(reads).toBeLessThanOrEqual(MAX_FIELD_PATH_LENGTH);
  });

  it("refuses an error naming a field the schema lacks under a field that is null", () => {
    const data = courses(course("a", { lastWatchedLecture: null }));
    const error = failedAt("viewer", "enrolledCourses", "nodes", 0, "lastWatchedLecture", "noSuchField");
    expect(keptPartialAnswer(data, [error], OPTIONAL)).toBeUndefined();
  });

  it("is no partial answer without errors", () => {
    expect(keptPartialAnswer(courses(course("a")), [], OPTIONAL)).toBeUndefined();
  });

  it.each([
    ["Courses", COURSES_DOCUMENT],
    ["Events", EVENTS_DOCUMENT],
    ["Orders", ORDERS_DOCUMENT],
    ["Overview", OVERVIEW_DOCUMENT],
  ])("%s asks for no alias, so every key of an error's path is a field's name", (_page, document) => {
    const aliases: string[] = [];
    visit(parse(document), { Field: (node) => void (node.alias && aliases.push(node.alias.value)) });
    expect(aliases).toEqual([]);
  });
});

describe("a partial answer that teaches something", () => {
  // A list the page can do without, on a site that declares it nullable and names its cap in the error.
  const operation: AccountOperation<{ viewer: { id: string; eventRegistrations?: { nodes: { id: string }[] } } }> = {
    document: "query DashboardProbeEvents($first: Int!) { viewer { id eventRegistrations(first: $first) { nodes { id } } } }",
    answer: z.object({
      viewer: z.object({ id: z.string(), eventRegistrations: z.object({ nodes: z.array(z.object({ id: z.string() })) }).optional() }),
    }),
    pageSizeVariables: ["first"],
    optionalFields: optionalFields("Viewer.eventRegistrations"),
  };

  it("learns the cap and asks again, rather than keeping the answer without the list", async () => {
    site.handlers.set("POST /account/graphql", (call) => {
      const first = (call.body as { variables: { first: number } }).variables.first;
      return first > 5
        ? {
            json: {
              data: { viewer: { id: "m1", eventRegistrations: null } },
              errors: [{ message: "first must be between 1 and 5", path: ["viewer", "eventRegistrations"] }],
            },
          }
        : { json: { data: { viewer: { id: "m1", eventRegistrations: { nodes: [{ id: "r1" }] } } } } };
    });
    const answer = await runAccountOperation("access-token", operation, { first: 20 });
    expect(answer.viewer.eventRegistrations?.nodes).toEqual([{ id: "r1" }]);
    expect(site.callsTo("/account/graphql")).toHaveLength(2);
    expect(learnedPageCap()).toBe(5);
  });
});

describe("a list with items the site could not give", () => {
  it("reads the rest of the list and counts them, whether an error names them or not", async () => {
    site.handlers.set("POST /account/graphql", () => ({
      json: {
        data: {
          viewer: {
            enrolledCourses: {
              nodes: [course("a"), null, course("c"), null],
              totalCount: 4,
              pageInfo: { hasNextPage: false, endCursor: null },
            },
          },
        },
        // The second null comes without an error: a site may leave out an item it will not give.
        errors: [{ message: "This course is no longer available", path: ["viewer", "enrolledCourses", "nodes", 1, "slug"] }],
      },
    }));
    const log = captureLog();
    const answer = await runAccountOperation("access-token", COURSES_OPERATION, { first: 50, after: null });
    expect(answer.viewer.enrolledCourses.nodes.map((node) => node.slug)).toEqual(["a", "c"]);
    // The operator hears of the item the error named: which field failed, and that an item was left out.
    expect(log.events()).toContainEqual(
      expect.objectContaining({ event: "account_api_partial_answer", failedFields: ["EnrolledCourse.slug"], itemsLeftOut: 1 }),
    );
    expect(answer.viewer.enrolledCourses.itemsUnavailable).toBe(2);
    expect(site.callsTo("/account/graphql")).toHaveLength(1);
  });
});

describe("asking the site again", () => {
  afterEach(() => forgetMissingFieldsForTests());

  // The member's id, name and registrations: the name and the registrations are fields the page can do without.
  const operation: AccountOperation<{ viewer: { id: string; name?: string | null; eventRegistrations?: { nodes: { id: string }[] } } }> = {
    document: "query DashboardProbeNamed($first: Int!) { viewer { id name eventRegistrations(first: $first) { nodes { id } } } }",
    answer: z.object({
      viewer: z.object({
        id: z.string(),
        name: z.string().nullish(),
        eventRegistrations: z.object({ nodes: z.array(z.object({ id: z.string() })) }).optional(),
      }),
    }),
    pageSizeVariables: ["first"],
    optionalFields: optionalFields("Viewer.eventRegistrations"),
  };
  const asksForName = (call: { body: unknown }) => /\bname\b/.test((call.body as { query: string }).query);
  const asksForEvents = (call: { body: unknown }) => (call.body as { query: string }).query.includes("eventRegistrations");

  it("learns a missing field and then a page cap from two refusals in a row, and reads the answer on the third ask", async () => {
    site.handlers.set("POST /account/graphql", (call) => {
      if (asksForName(call)) return { json: { errors: [{ message: 'Cannot query field "name" on type "Viewer".' }] } };
      if ((call.body as { variables: { first: number } }).variables.first > 5) {
        return { json: { errors: [{ message: "first must be between 1 and 5" }] } };
      }
      return { json: { data: { viewer: { id: "m1", eventRegistrations: { nodes: [{ id: "r1" }] } } } } };
    });
    const answer = await runAccountOperation("access-token", operation, { first: 20 });
    expect(answer.viewer).toEqual({ id: "m1", eventRegistrations: { nodes: [{ id: "r1" }] } });
    expect(site.callsTo("/account/graphql")).toHaveLength(3);
    expect(fieldsMissingAtSite()).toEqual(["Viewer.name"]);
    expect(learnedPageCap()).toBe(5);
  });

  it("asks without failed optional fields once only: a second failure of another optional field fails the query", async () => {
    site.handlers.set("POST /account/graphql", (call) => {
      if (asksForEvents(call))
        return { json: { data: { viewer: null }, errors: [failedAt("viewer", "eventRegistrations", "nodes", 0, "id")] } };
      if (asksForName(call)) return { json: { data: { viewer: null }, errors: [failedAt("viewer", "name")] } };
      return { json: { data: { viewer: { id: "m1" } } } };
    });
    await expect(runAccountOperation("access-token", operation, { first: 20 })).rejects.toMatchObject({
      code: "account_api_failed",
      detail: "graphql_error",
    });
    expect(site.callsTo("/account/graphql")).toHaveLength(2);
  });

  it("learns nothing from GraphQL errors in a 5xx answer and reports the site's failure, not the query's", async () => {
    site.handlers.set("POST /account/graphql", () => ({ status: 500, json: { errors: [{ message: "first must be between 1 and 5" }] } }));
    await expect(runAccountOperation("access-token", operation, { first: 20 })).rejects.toMatchObject({
      code: "account_api_failed",
      detail: "http_500",
    });
    expect(site.callsTo("/account/graphql")).toHaveLength(1);
    expect(learnedPageCap()).toBeUndefined();
  });
});

describe("the overview's later pages of events", () => {
  const registration = (id: string) => ({
    id,
    state: "enrolled",
    event: { id: `e-${id}`, title: "Event", startTime: "2027-01-01T10:00:00Z" },
  });
  const request = {
    accessToken: "access-token",
    after: null,
    siteLinks: SITE_LINKS,
    now: new Date("2026-12-01T00:00:00Z"),
    timeZone: "UTC",
  };

  it("shows the events when the overview was asked again without another optional field (the member's name)", async () => {
    site.handlers.set("POST /account/graphql", (call) => {
      if (/viewer\s*\{\s*name\b/.test((call.body as { query: string }).query))
        return { json: { data: { viewer: null }, errors: [failedAt("viewer", "name")] } };
      const events = { nodes: [registration("r1")], pageInfo: { hasNextPage: false, endCursor: "r1" }, totalCount: 1 };
      const noCourses = { nodes: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 };
      return { json: { data: { viewer: { email: "mei@example.com", enrolledCourses: noCourses, eventRegistrations: events } } } };
    });
    const overview = await loadOverview(request);
    expect(overview.name).toBe("mei@example.com");
    expect(overview.upcomingEvents?.map((item) => item.id)).toEqual(["r1"]);
    expect(overview).not.toHaveProperty("upcomingEventsFailed");
    expect(site.callsTo("/account/graphql")).toHaveLength(2);
  });

  it("lets a refusal of the member's token through, rather than showing it as events that could not be loaded", async () => {
    site.handlers.set("POST /account/graphql", (call) => {
      if ((call.body as { query: string }).query.includes("DashboardOverview")) {
        const events = { nodes: [registration("r1")], pageInfo: { hasNextPage: true, endCursor: "r1" }, totalCount: 2 };
        const noCourses = { nodes: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 };
        return {
          json: { data: { viewer: { name: "Mei", email: "mei@example.com", enrolledCourses: noCourses, eventRegistrations: events } } },
        };
      }
      return {
        status: 403,
        json: { error: "insufficient_scope" },
        headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="account:read"' },
      };
    });
    await expect(loadOverview(request)).rejects.toMatchObject({ code: "insufficient_scope" });
  });
});

describe("the optional fields on a failed answer's error paths", () => {
  const events = optionalFields("Viewer.eventRegistrations");

  it("names the shallowest optional field of each error, once", () => {
    const deep = failedAt("viewer", "eventRegistrations", "nodes", 0, "event", "title");
    expect(optionalFieldsOnErrorPaths([deep, failedAt("viewer", "eventRegistrations")], events)).toEqual(["Viewer.eventRegistrations"]);
  });

  it("names none when one error's path goes through no optional field, or reads as no field of the schema", () => {
    const optional = failedAt("viewer", "eventRegistrations", "nodes", 0, "event", "title");
    expect(optionalFieldsOnErrorPaths([optional, failedAt("viewer", "enrolledCourses", "nodes", 0, "slug")], events)).toBeUndefined();
    expect(optionalFieldsOnErrorPaths([failedAt("viewer", "bogus", "eventRegistrations")], events)).toBeUndefined();
    expect(optionalFieldsOnErrorPaths([], events)).toBeUndefined();
  });

  it("names none for a path longer than any field asked for", () => {
    const long = failedAt("viewer", "eventRegistrations", ...Array.from({ length: MAX_FIELD_PATH_LENGTH }, () => 0));
    expect(optionalFieldsOnErrorPaths([long], events)).toBeUndefined();
  });
});
