/**
 * Orders, Events and Courses (past its first load of 500 enrollments) render as many pages of their list as
 * the URL's `pages` asks for (README, Data): a
 * reload, Back from the site, and "Show more" pressed before the page is interactive (a GET form to
 * `?pages=N`) find the list as long as it was. At most MAX_SHOWN_PAGES, all within the page view's one
 * deadline; a page after the first that fails ends the list there, the pages read kept, with Show more.
 */
import type { ReactElement } from "react";
import { describe, expect, it, vi } from "vitest";

import CoursesPage from "@/app/(member)/courses/page";
import OrdersPage from "@/app/(member)/orders/page";
import { COURSES_BOUND } from "@/lib/account-api/pages/courses";
import { MAX_SHOWN_PAGES, parseShownPages, shownPagesQuery } from "@/lib/contract/shown-pages";

import { runAfterResponse } from "../support/after-response";
import { setUpDashboardOnFakeSite } from "../support/dashboard-on-fake-site";
import type { RecordedCall } from "../support/fake-site";
import { requestHeaders } from "../support/request-headers";
import { sessionCookie } from "../support/session-fixture";

vi.mock("next/headers", () => import("../support/request-headers"));
vi.mock("next/server", async (real) => ({ ...(await real<object>()), ...(await import("../support/after-response")) }));
// A page view's deadline of a second, so that a test can outlast it.
vi.mock("@/lib/site/site-deadline", async (real) => ({ ...(await real<object>()), PAGE_VIEW_DEADLINE_MS: 1_000 }));

const site = setUpDashboardOnFakeSite();

const SITE_PAGES = 8;
const ORDERS_PER_PAGE = 2;

/** The `after` the dashboard sent in each call to the Account API, in order. */
function cursorsAsked(): (string | null)[] {
  return site.callsTo("/account/graphql").map((call) => (call.body as { variables: { after: string | null } }).variables.after);
}

/**
 * The site's orders, two a page over eight pages, page `n` (1 for the first) asked for with cursor `c{n-1}`;
 * `answerOf` may answer a page otherwise.
 */
function siteOrders(
  answerOf: (page: number) => { status?: number; json?: unknown; delayMs?: number } | undefined = () => undefined,
  sitePages = SITE_PAGES,
) {
  site.handlers.set("POST /account/graphql", (call: RecordedCall) => {
    const after = (call.body as { variables: { after: string | null } }).variables.after;
    const page = after === null ? 1 : Number(after.slice(1)) + 1;
    const nodes = Array.from({ length: ORDERS_PER_PAGE }, (_, index) => {
      const number = (page - 1) * ORDERS_PER_PAGE + index + 1;
      return {
        id: `order-${number}`,
        tradeNo: `T-${number}`,
        state: "paid",
        currency: "TWD",
        amount: 100,
        createdAt: new Date(Date.UTC(2026, 10, 30) - number * 86_400_000).toISOString(),
      };
    });
    const orders = {
      totalCount: sitePages * ORDERS_PER_PAGE,
      pageInfo: { hasNextPage: page < sitePages, endCursor: page < sitePages ? `c${page}` : null },
      nodes,
    };
    return { json: { data: { viewer: { orders } } }, ...answerOf(page) };
  });
}

/**
 * The Orders page for a signed-in member and the URL's query `query`: the ids of the orders on each page it
 * holds, the last page's cursor, and the cursor each page was read with and each page's own (`pageParams`, `cursors`).
 */
async function ordersRendered(
  query: Record<string, string | string[]>,
): Promise<{ pages: string[][]; nextCursor: unknown; pageParams: unknown[]; cursors: unknown[] }> {
  requestHeaders.current = new Headers({
    "sec-fetch-mode": "navigate",
    cookie: await sessionCookie(),
  });
  const element = (await OrdersPage({ searchParams: Promise.resolve(query) })) as ReactElement<{
    state: {
      queries: {
        queryKey: unknown;
        state: { status: string; data?: { pages: { items: { id: string }[]; nextCursor: unknown }[]; pageParams: unknown[] } };
      }[];
    };
  }>;
  await runAfterResponse();
  const [orders, ...others] = element.props.state.queries;
  expect(others).toEqual([]);
  expect(orders?.state.status).toBe("success");
  const pages = orders?.state.data?.pages ?? [];
  return {
    pages: pages.map((page) => page.items.map((order) => order.id)),
    nextCursor: pages.at(-1)?.nextCursor,
    pageParams: orders?.state.data?.pageParams ?? [],
    cursors: pages.map((page) => page.nextCursor),
  };
}

describe("the URL's `pages`", () => {
  it.each([
    [undefined, 1],
    ["3", 3],
    ["1", 1],
    ["0", 1],
    ["-2", 1],
    ["2.5", 1],
    ["x", 1],
    ["99999", MAX_SHOWN_PAGES],
    [["2", "4"], 2],
  ])("%j asks for %i pages", (value, pages) => {
    expect(parseShownPages({ pages: value })).toBe(pages);
  });

  it("is left out of the URL for the first page alone", () => {
    expect([shownPagesQuery(1), shownPagesQuery(2), shownPagesQuery(7)]).toEqual(["", "?pages=2", "?pages=7"]);
    // A whole number, as `pages` is read back (parseShownPages refuses "2.5").
    expect(shownPagesQuery(2.5)).toBe("?pages=2");
  });
});

describe("Orders renders the pages the URL asks for", () => {
  it("without `pages`, the first page, asked for once", async () => {
    siteOrders();
    const { pages } = await ordersRendered({});
    expect(pages).toEqual([["order-1", "order-2"]]);
    expect(cursorsAsked()).toEqual([null]);
  });

  it("`pages=3`: three pages, each asked for with the cursor of the one before, and a cursor to go on from", async () => {
    siteOrders();
    const { pages, nextCursor } = await ordersRendered({ pages: "3" });
    expect(pages).toEqual([
      ["order-1", "order-2"],
      ["order-3", "order-4"],
      ["order-5", "order-6"],
    ]);
    expect(cursorsAsked()).toEqual([null, "c1", "c2"]);
    // Sealed for the browser (lib/account-api/page-cursor.ts), never the site's own.
    expect(nextCursor).toEqual(expect.any(String));
    expect(nextCursor).not.toBe("c3");
  });

  it("keeps with each page the cursor it was read with, so that the browser reads the same pages again", async () => {
    siteOrders();
    const { pageParams, cursors } = await ordersRendered({ pages: "3" });
    expect(pageParams).toEqual([null, cursors[0], cursors[1]]);
  });

  it("a list shorter than the URL asks for: its pages once each, and no cursor to go on from", async () => {
    siteOrders(undefined, 2);
    const { pages, nextCursor } = await ordersRendered({ pages: "5" });
    expect(pages).toEqual([
      ["order-1", "order-2"],
      ["order-3", "order-4"],
    ]);
    expect(cursorsAsked()).toEqual([null, "c1"]);
    expect(nextCursor).toBeNull();
  });

  it(`asks the site for at most ${MAX_SHOWN_PAGES} pages, whatever the URL says`, async () => {
    siteOrders();
    const { pages } = await ordersRendered({ pages: "500" });
    expect(pages).toHaveLength(MAX_SHOWN_PAGES);
    expect(cursorsAsked()).toHaveLength(MAX_SHOWN_PAGES);
  });

  it("a page after the first that fails ends the list there: the pages read are shown, with a cursor for Show more", async () => {
    siteOrders((page) => (page === 3 ? { status: 200, json: { errors: [{ message: "Internal server error" }] } } : undefined));
    const { pages, nextCursor } = await ordersRendered({ pages: "5" });
    expect(pages).toEqual([
      ["order-1", "order-2"],
      ["order-3", "order-4"],
    ]);
    expect(nextCursor).toEqual(expect.any(String));
    expect(cursorsAsked()).toEqual([null, "c1", "c2"]);
  });

  it("all the pages share the page view's one deadline: a slow site gives fewer pages, in time", async () => {
    siteOrders(() => ({ delayMs: 400 }));
    const started = performance.now();
    const { pages } = await ordersRendered({ pages: "5" });
    // Five pages of 400 ms would take two seconds with a deadline of their own each.
    expect(performance.now() - started).toBeLessThan(1_800);
    expect(pages.length).toBeGreaterThanOrEqual(1);
    expect(pages.length).toBeLessThan(MAX_SHOWN_PAGES);
  });
});

describe("Courses reads the loads of enrollments the URL asks for", () => {
  /** The site's enrollments, `total` of them, in pages of what the dashboard asks for; the cursor is the offset. */
  function siteEnrollments(total: number) {
    site.handlers.set("POST /account/graphql", (call: RecordedCall) => {
      const { first, after } = (call.body as { variables: { first: number; after: string | null } }).variables;
      const offset = after === null ? 0 : Number(after);
      const end = Math.min(offset + first, total);
      const nodes = Array.from({ length: end - offset }, (_, index) => ({
        slug: `course-${offset + index + 1}`,
        name: `Course ${offset + index + 1}`,
        expireDate: null,
        hasLifetimeAccess: true,
        completionPercentage: 0,
        lastWatchedLecture: null,
      }));
      const enrolledCourses = {
        totalCount: total,
        pageInfo: { hasNextPage: end < total, endCursor: end < total ? String(end) : null },
        nodes,
      };
      return { json: { data: { viewer: { enrolledCourses } } } };
    });
  }

  /** How many enrollments each load the Courses page holds has, for the URL's query `query`. */
  async function coursesRendered(query: Record<string, string>): Promise<number[]> {
    requestHeaders.current = new Headers({ "sec-fetch-mode": "navigate", cookie: await sessionCookie() });
    const element = (await CoursesPage({ searchParams: Promise.resolve(query) })) as ReactElement<{
      state: { queries: { state: { status: string; data?: { pages: { items: unknown[] }[] } } }[] };
    }>;
    await runAfterResponse();
    const [courses] = element.props.state.queries;
    expect(courses?.state.status).toBe("success");
    return (courses?.state.data?.pages ?? []).map((page) => page.items.length);
  }

  it("without `pages`, the first load of its bound alone", async () => {
    siteEnrollments(COURSES_BOUND + 30);
    expect(await coursesRendered({})).toEqual([COURSES_BOUND]);
  });

  it("`pages=2` (left by Show more past the first load): the rest too, in the first HTML", async () => {
    siteEnrollments(COURSES_BOUND + 30);
    expect(await coursesRendered({ shown: "524", pages: "2" })).toEqual([COURSES_BOUND, 30]);
  });
});
