/**
 * A site's answer is checked against the form its query asks for before anything reads it (OWASP ASVS 5
 * V1.5). A site that answers a null, a number, a list or a date the dashboard cannot read where the query
 * asks for something else is a site failure with its own words ("The site could not answer this
 * request", 502 query_failed), and the log names where the answer differs: never a crash of the page
 * (500 "Something went wrong on our side") and never a value from the answer in the log.
 */
import { beforeAll, describe, expect, it } from "vitest";

import { loadAccountPage, type AccountPageKey } from "@/lib/account-api/registry";
import { resetConfigForTests } from "@/lib/config";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { SiteError } from "@/lib/site/errors";

import { captureLog } from "../../support/captured-log";
import { configureDashboard } from "../../support/env";
import { setUpFakeSite } from "../../support/fake-site";

const site = setUpFakeSite({ idTokens: false });
beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
});

const MEMBER = { accessToken: "at-member", claims: { sub: "member-1" } };
const PAGES: AccountPageKey[] = ["overview", "courses", "orders", "events"];
/** A value the log must never show. */
const MARK = "value-from-the-answer-7f3a";

const course = { slug: "c1", expireDate: null, hasLifetimeAccess: true, lastWatchedLecture: null };
const order = { id: "o1", tradeNo: "T1", state: "paid", currency: "TWD", amount: 1, createdAt: "2026-11-01T00:00:00+08:00" };
const registration = { id: "r1", state: "enrolled", event: { id: "e1", title: "Q&A", startTime: "2026-12-01T10:00:00+08:00" } };
/** An answer to every page's query, each list holding `node` of its kind. */
const viewerWith = (nodes: { course: unknown; order: unknown; registration: unknown }) => ({
  data: {
    viewer: {
      email: "maya@example.com",
      enrolledCourses: { nodes: [nodes.course] },
      orders: { nodes: [nodes.order] },
      eventRegistrations: { nodes: [nodes.registration] },
    },
  },
});

const MALFORMED: [string, unknown][] = [
  ["no data", { data: null }],
  ["a list for an answer", []],
  ["viewer null", { data: { viewer: null } }],
  [
    "every connection null",
    { data: { viewer: { email: "m@example.com", enrolledCourses: null, orders: null, eventRegistrations: null } } },
  ],
  [
    "nodes that are not a list",
    {
      data: {
        viewer: { email: "m@example.com", enrolledCourses: { nodes: MARK }, orders: { nodes: MARK }, eventRegistrations: { nodes: MARK } },
      },
    },
  ],
  ["an empty node", viewerWith({ course: {}, order: {}, registration: {} })],
  [
    "numbers for strings",
    viewerWith({ course: { ...course, slug: 5 }, order: { ...order, currency: 4 }, registration: { ...registration, state: 2 } }),
  ],
  [
    "a date the dashboard cannot read",
    viewerWith({
      course: { ...course, hasLifetimeAccess: false, expireDate: MARK },
      order: { ...order, createdAt: MARK },
      registration: { ...registration, event: { ...registration.event, startTime: MARK } },
    }),
  ],
];

describe("an answer in another form than the query asks for", () => {
  it.each(MALFORMED.flatMap(([label, answer]) => PAGES.map((page) => [label, page, answer] as const)))(
    "%s: %s says the site could not answer, and the log says where",
    async (_label, page, answer) => {
      site.handlers.set("POST /account/graphql", () => ({ json: answer }));
      const log = captureLog();
      const error: unknown = await loadAccountPage(page, MEMBER).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(SiteError);
      expect(error).toMatchObject({ code: "account_api_failed", detail: "unexpected_answer" });
      const response = apiErrorResponse(error);
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ error: { code: "query_failed", message: "The site could not answer this request." } });
      const logged = log.events().find((event) => event.event === "site_error");
      expect(logged).toMatchObject({ errorCode: "query_failed", detail: "unexpected_answer" });
      expect(String(logged?.message)).toMatch(/^The site's answer does not have the form the query asks for: /);
      expect(log.text()).not.toContain(MARK);
      // One request: an answer in the wrong form is not asked for again.
      expect(site.callsTo("/account/graphql")).toHaveLength(1);
    },
  );

  it("an answer in the form asked for, with what a site may leave out, is read", async () => {
    site.handlers.set("POST /account/graphql", () => ({
      json: viewerWith({
        course: { ...course, name: null, completionPercentage: null },
        order: { ...order, lineItems: [], paidAt: null },
        registration: { ...registration, event: { ...registration.event, endTime: null } },
      }),
    }));
    for (const page of PAGES) await expect(loadAccountPage(page, MEMBER)).resolves.toBeDefined();
  });

  it.each([
    ["errors", { errors: null }],
    ["extensions", { extensions: null }],
    ["errors and extensions", { errors: null, extensions: null }],
  ])("an answer that writes null for its %s, as a serializer of every field does, is read", async (_fields, unset) => {
    site.handlers.set("POST /account/graphql", () => ({ json: { ...unset, ...viewerWith({ course, order, registration }) } }));
    for (const page of PAGES) await expect(loadAccountPage(page, MEMBER)).resolves.toBeDefined();
  });

  it("an answer that writes null for its errors, beside an error on its root field, is still that error", async () => {
    site.handlers.set("POST /account/graphql", () => ({
      json: { extensions: null, errors: [{ message: "Internal error", path: ["viewer"] }], data: { viewer: null } },
    }));
    await expect(loadAccountPage("courses", MEMBER)).rejects.toMatchObject({ code: "account_api_failed" });
  });

  it("a null item of a list is one the site could not give: the rest is read, and the page counts it", async () => {
    // A site whose schema makes a list's items nullable (GitHub's do) may send null for one, with or without an error.
    site.handlers.set("POST /account/graphql", () => ({
      json: {
        data: {
          viewer: {
            email: "maya@example.com",
            enrolledCourses: { nodes: [null, course, null], totalCount: 3 },
            orders: { nodes: [order, null] },
            eventRegistrations: { nodes: [null, registration] },
          },
        },
      },
    }));
    const courses = await loadAccountPage("courses", MEMBER);
    expect(courses).toMatchObject({ items: [{ slug: "c1" }], totalCount: 3, itemsUnavailable: 2 });
    expect(await loadAccountPage("orders", MEMBER)).toMatchObject({ items: [{ id: "o1" }], itemsUnavailable: 1 });
    expect(await loadAccountPage("events", MEMBER)).toMatchObject({ items: [{ id: "r1" }], itemsUnavailable: 1 });
    expect(await loadAccountPage("overview", MEMBER)).toMatchObject({ coursesUnavailable: 2, registrationsUnavailable: 1 });
  });

  it("amounts a site writes as decimal strings (a Decimal scalar) are read as numbers; other strings are no amount", async () => {
    const orderWith = (amounts: { amount: unknown; refundedAmount: unknown; line: unknown }) =>
      viewerWith({
        course,
        order: {
          ...order,
          amount: amounts.amount,
          refundedAmount: amounts.refundedAmount,
          lineItems: [{ name: "Plan", amount: amounts.line, itemType: "CurriculumPlan" }],
        },
        registration,
      });
    site.handlers.set("POST /account/graphql", () => ({ json: orderWith({ amount: "1234.50", refundedAmount: "0.99", line: "-5" }) }));
    expect(await loadAccountPage("orders", MEMBER)).toMatchObject({
      items: [{ amount: 1234.5, refundedAmount: 0.99, lineItems: [{ amount: -5 }] }],
    });
    for (const amount of ["1,234.50", "1e3", "NT$1200", " 12", "12.", ""]) {
      site.handlers.set("POST /account/graphql", () => ({ json: orderWith({ amount, refundedAmount: null, line: 1 }) }));
      await expect(loadAccountPage("orders", MEMBER), amount).rejects.toMatchObject({ detail: "unexpected_answer" });
    }
  });

  it("identifiers a site types as numbers are read as strings", async () => {
    site.handlers.set("POST /account/graphql", () => ({
      json: viewerWith({
        course: { ...course, hasLifetimeAccess: false, lastWatchedLecture: { lectureId: 42, positionSeconds: 90 } },
        order: { ...order, id: 7 },
        registration: { ...registration, id: 8, event: { ...registration.event, id: 9 } },
      }),
    }));
    const courses = await loadAccountPage("courses", MEMBER);
    expect(courses.items[0]?.lastWatched).toMatchObject({ lectureId: "42", resumeUrl: expect.stringContaining("42") as unknown });
    expect((await loadAccountPage("orders", MEMBER)).items[0]?.id).toBe("7");
    expect((await loadAccountPage("events", MEMBER)).items[0]).toMatchObject({ id: "8", event: { id: "9" } });
  });
});
