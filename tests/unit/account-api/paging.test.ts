import { afterEach, describe, expect, it } from "vitest";

import type { RawConnection } from "@/lib/account-api/fragments";
import { ORDERS_OPERATION } from "@/lib/account-api/pages/orders";
import { OVERVIEW_OPERATION } from "@/lib/account-api/pages/overview";
import { collectPages, forgetPageCapForTests, learnedPageCap, learnPageCapFromRefusal, pageSizeWithinCap } from "@/lib/account-api/paging";
import {
  documentForSite,
  fieldsMissingAtSite,
  forgetMissingFieldsForTests,
  learnMissingFieldsFromRefusal,
} from "@/lib/account-api/schema-fitting";
import { withSiteDeadline } from "@/lib/site/site-deadline";

afterEach(() => {
  forgetPageCapForTests();
  forgetMissingFieldsForTests();
});

/** A site holding `total` items that pages them by cursor and refuses pages above `cap`. */
function pagedSite(total: number, cap: number) {
  const requests: { first: number; after: string | null }[] = [];
  const fetchPage = (first: number, after: string | null): Promise<RawConnection<number>> => {
    requests.push({ first, after });
    if (first > cap) throw new Error(`first must be between 1 and ${cap}`);
    const start = after === null ? 0 : Number(after) + 1;
    const nodes = Array.from({ length: Math.max(0, Math.min(first, total - start)) }, (_, index) => start + index);
    const last = start + nodes.length - 1;
    return Promise.resolve({
      nodes,
      totalCount: total,
      pageInfo: { hasNextPage: last + 1 < total, endCursor: nodes.length ? String(last) : null },
    });
  };
  return { requests, fetchPage };
}

describe("collectPages", () => {
  it("follows pageInfo in modest pages until the connection ends", async () => {
    const site = pagedSite(130, 100);
    const collected = await collectPages({ keyOf: String, fetchPage: site.fetchPage, maxItems: 500 });
    expect(collected.nodes).toEqual(Array.from({ length: 130 }, (_, index) => index));
    expect(collected).toMatchObject({ totalCount: 130, moreCount: 0, nextCursor: null });
    expect(site.requests.map((request) => request.first)).toEqual([50, 50, 50]);
  });

  it("stops at the stated bound and says how many more there are, and where to continue", async () => {
    const site = pagedSite(130, 100);
    const collected = await collectPages({ keyOf: String, fetchPage: site.fetchPage, maxItems: 60, pageSize: 25 });
    expect(collected.nodes).toHaveLength(60);
    expect(collected.moreCount).toBe(70);
    expect(collected.nextCursor).toBe("59");
    const rest = await collectPages({ keyOf: String, fetchPage: site.fetchPage, maxItems: 500, after: collected.nextCursor });
    expect(rest.nodes[0]).toBe(60);
    expect(rest.nodes).toHaveLength(70);
  });

  it("starts from a first page the caller already has", async () => {
    const site = pagedSite(70, 100);
    const firstPage = await site.fetchPage(50, null);
    const collected = await collectPages({ keyOf: String, firstPage, fetchPage: site.fetchPage, maxItems: 500 });
    expect(collected.nodes).toHaveLength(70);
    expect(site.requests).toHaveLength(2);
  });

  it("ends instead of looping when a site repeats a cursor or sends an empty page while claiming more", async () => {
    let calls = 0;
    const repeating = (): Promise<RawConnection<number>> => {
      calls += 1;
      return Promise.resolve({ nodes: [calls], totalCount: 999, pageInfo: { hasNextPage: true, endCursor: "same" } });
    };
    const repeated = await collectPages({ keyOf: String, fetchPage: repeating, maxItems: 500 });
    expect(calls).toBe(2);
    expect(repeated.nextCursor).toBeNull();
    const empty = () => Promise.resolve({ nodes: [] as number[], totalCount: 5, pageInfo: { hasNextPage: true, endCursor: "more" } });
    expect(await collectPages({ keyOf: String, fetchPage: empty, maxItems: 500 })).toMatchObject({ nodes: [], nextCursor: null });
  });

  it("keeps each node once when the list moved between two of its pages (the node at the seam comes again)", async () => {
    // Two pages of three by position; between them, a node was added at the top, so the second page starts one earlier.
    const pages: Record<string, RawConnection<number>> = {
      start: { nodes: [1, 2, 3], totalCount: 6, pageInfo: { hasNextPage: true, endCursor: "after-3" } },
      "after-3": { nodes: [3, 4, 5], totalCount: 7, pageInfo: { hasNextPage: true, endCursor: "after-5" } },
      "after-5": { nodes: [5, 6], totalCount: 7, pageInfo: { hasNextPage: false, endCursor: "after-6" } },
    };
    const fetchPage = (_first: number, after: string | null) => Promise.resolve(pages[after ?? "start"]!);
    const collected = await collectPages({ keyOf: String, fetchPage, maxItems: 500 });
    expect(collected.nodes).toEqual([1, 2, 3, 4, 5, 6]);
    // The bound counts each node once too.
    expect((await collectPages({ keyOf: String, fetchPage, maxItems: 4 })).nodes).toEqual([1, 2, 3, 4]);
  });

  it("on a site too slow for every page within the view's deadline, stops in time and says where to go on", async () => {
    const site = pagedSite(130, 100);
    const slowPage = async (first: number, after: string | null) => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return site.fetchPage(first, after);
    };
    // Thirteen pages of 150 ms do not fit in 1.5 s: the read ends with what came in time, never with the deadline.
    const collected = await withSiteDeadline(1_500, () =>
      collectPages({ keyOf: String, fetchPage: slowPage, maxItems: 500, pageSize: 10 }),
    );
    const read = collected.nodes.length;
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(130);
    expect(site.requests).toHaveLength(read / 10);
    expect(collected).toMatchObject({ totalCount: 130, moreCount: 130 - read, nextCursor: String(read - 1) });
  });

  it("asks at most as many times as the bound, even when every page repeats the same node with a new cursor", async () => {
    let calls = 0;
    const sameNode = () => {
      calls += 1;
      return Promise.resolve({ nodes: [7], totalCount: 999, pageInfo: { hasNextPage: true, endCursor: `c${calls}` } });
    };
    const collected = await collectPages({ keyOf: String, fetchPage: sameNode, maxItems: 5 });
    expect(calls).toBe(5);
    expect(collected.nodes).toEqual([7]);
  });

  it("from a cursor, knows nothing of how many more there are; a total under what it read is none", async () => {
    const site = pagedSite(100, 100);
    expect((await collectPages({ keyOf: String, fetchPage: site.fetchPage, maxItems: 10, after: "9" })).moreCount).toBeNull();
    const shrinking = () =>
      Promise.resolve({ nodes: [1, 2, 3], totalCount: 2, pageInfo: { hasNextPage: true, endCursor: "c3" } } as RawConnection<number>);
    expect((await collectPages({ keyOf: String, fetchPage: shrinking, maxItems: 3 })).moreCount).toBe(0);
  });

  it("stops at an empty page even when the site hands a new cursor with each one", async () => {
    let calls = 0;
    const emptyPages = () => {
      calls += 1;
      return Promise.resolve({ nodes: [] as number[], totalCount: 5, pageInfo: { hasNextPage: true, endCursor: `c${calls}` } });
    };
    const collected = await collectPages({ keyOf: String, fetchPage: emptyPages, maxItems: 500 });
    expect(calls).toBe(1);
    expect(collected).toMatchObject({ nodes: [], moreCount: 0, nextCursor: null });
  });

  it("keeps the site's total when a later page leaves it out", async () => {
    const pages: Record<string, RawConnection<number>> = {
      start: { nodes: [1, 2], totalCount: 3, pageInfo: { hasNextPage: true, endCursor: "after-2" } },
      "after-2": { nodes: [3], pageInfo: { hasNextPage: false, endCursor: "after-3" } },
    };
    const fetchPage = (_first: number, after: string | null) => Promise.resolve(pages[after ?? "start"]!);
    const collected = await collectPages({ keyOf: String, fetchPage, maxItems: 500 });
    expect(collected).toMatchObject({ nodes: [1, 2, 3], totalCount: 3 });
  });

  it("goes on past a page whose every item the site could not give, and counts them apart from those left to read", async () => {
    const pages: Record<string, RawConnection<number>> = {
      start: { nodes: [], itemsUnavailable: 2, totalCount: 6, pageInfo: { hasNextPage: true, endCursor: "after-2" } },
      "after-2": { nodes: [3], itemsUnavailable: 1, totalCount: 6, pageInfo: { hasNextPage: true, endCursor: "after-4" } },
    };
    const fetchPage = (_first: number, after: string | null) => Promise.resolve(pages[after ?? "start"]!);
    // Bound at two items, so two requests: of six, one read and three the site could not give leave two to read.
    const collected = await collectPages({ keyOf: String, fetchPage, maxItems: 2 });
    expect(collected).toEqual({ nodes: [3], totalCount: 6, moreCount: 2, nextCursor: "after-4", itemsUnavailable: 3 });
  });

  it("reads one page from a site without pageInfo and says more may exist", async () => {
    const collected = await collectPages({ keyOf: String, fetchPage: () => Promise.resolve({ nodes: [1, 2, 3] }), maxItems: 500 });
    expect(collected).toEqual({ nodes: [1, 2, 3], totalCount: null, moreCount: 0, nextCursor: null, itemsUnavailable: 0 });
  });
});

describe("learnPageCapFromRefusal", () => {
  it("learns the maximum the error names (message or extensions) and lowers every later page size", () => {
    expect(learnPageCapFromRefusal([{ message: "first must be between 1 and 10" }], 50)).toBe(true);
    expect(learnedPageCap()).toBe(10);
    expect(pageSizeWithinCap(50)).toBe(10);
    expect(pageSizeWithinCap(5)).toBe(5);
    forgetPageCapForTests();
    expect(
      learnPageCapFromRefusal(
        [{ message: "Page size too large", extensions: { maxPageSize: 25 } }, { message: "Argument first is invalid" }],
        50,
      ),
    ).toBe(true);
    expect(learnedPageCap()).toBe(25);
  });

  // A site that prices queries refuses the whole query; its cost grows with the page size (each server's words checked against its source).
  it.each<[string, { message: string; extensions?: Record<string, unknown>; type?: string }, number]>([
    ["graphql-ruby", { message: "Query has complexity of 1000, which exceeds max complexity of 500" }, 22],
    ["graphql-java", { message: "maximum query complexity exceeded 1000 > 500" }, 22],
    [
      "Shopify",
      { message: "Query cost is 1000, which exceeds the single query max cost limit (500).", extensions: { code: "MAX_COST_EXCEEDED" } },
      22,
    ],
    [
      "GitHub",
      {
        message: "This query requests up to 1,000,000 possible nodes which exceeds the maximum limit of 500,000.",
        type: "MAX_NODE_LIMIT_EXCEEDED",
      },
      22,
    ],
    ["graphql-query-complexity", { message: "The query exceeds the maximum complexity of 500. Actual complexity is 1000" }, 22],
    [
      "Hot Chocolate, by field cost",
      { message: "The maximum allowed field cost was exceeded.", extensions: { code: "HC0047", fieldCost: 1000, maxFieldCost: 500 } },
      22,
    ],
    [
      "Hot Chocolate, by type cost",
      { message: "The maximum allowed type cost was exceeded.", extensions: { typeCost: 4000, maxTypeCost: 1000 } },
      11,
    ],
    ["a code alone (Hot Chocolate)", { message: "Too expensive.", extensions: { code: "HC0047" } }, 25],
    ["a type alone (GitHub)", { message: "Too many nodes.", type: "MAX_NODE_LIMIT_EXCEEDED" }, 25],
  ])("learns a smaller page from a refusal of the query's cost: %s", (_server, error, cap) => {
    // Scaled by the limit over the cost, a tenth less (the query's fixed part); half when they are not named.
    expect(learnPageCapFromRefusal([error], 50)).toBe(true);
    expect(learnedPageCap()).toBe(cap);
  });

  it("learns nothing from a refusal that is not of the cost, or when a smaller page cannot help", () => {
    expect(learnPageCapFromRefusal([{ message: "Query has depth of 16, which exceeds max depth of 15" }], 50)).toBe(false);
    expect(learnPageCapFromRefusal([{ message: "Query has complexity of 1000, which exceeds max complexity of 500" }], 1)).toBe(false);
    expect(learnedPageCap()).toBeUndefined();
  });

  it("halves the size when the site names no maximum, and gives up when a smaller page cannot help", () => {
    expect(learnPageCapFromRefusal([{ message: "Argument first is too large" }], 50)).toBe(true);
    expect(learnedPageCap()).toBe(25);
    expect(learnPageCapFromRefusal([{ message: "first must be between 1 and 100" }], 20)).toBe(false);
    expect(learnPageCapFromRefusal([{ message: 'Cannot query field "name" on type "Viewer".' }], 50)).toBe(false);
    expect(learnPageCapFromRefusal([{ message: "firstName is required" }], 50)).toBe(false);
    // A maximum in the extensions under another common name; one that is no positive whole number is no maximum.
    forgetPageCapForTests();
    expect(learnPageCapFromRefusal([{ message: "Argument FIRST too big", extensions: { maximum: 20 } }], 50)).toBe(true);
    expect(learnedPageCap()).toBe(20);
    forgetPageCapForTests();
    expect(learnPageCapFromRefusal([{ message: "$first refused", extensions: { maxPageSize: 0, limit: 2.5 } }], 50)).toBe(true);
    expect(learnedPageCap()).toBe(25);
    // Asked for one, nothing smaller helps; a later, larger maximum does not raise what was learned.
    expect(learnPageCapFromRefusal([{ message: "Argument first is too large" }], 1)).toBe(false);
    expect(learnPageCapFromRefusal([{ message: "first must be between 1 and 40" }], 50)).toBe(true);
    expect(learnedPageCap()).toBe(25);
  });
  it("asks no smaller page when the maximum the site names is the size that was asked for", () => {
    expect(learnPageCapFromRefusal([{ message: "first must be between 1 and 20" }], 20)).toBe(false);
    expect(learnedPageCap()).toBeUndefined();
  });

  it("reads a 0 in the message as no maximum, and halves the size", () => {
    expect(learnPageCapFromRefusal([{ message: "Argument first at position 0 is too large" }], 50)).toBe(true);
    expect(learnedPageCap()).toBe(25);
  });
});

describe("fields the site lacks", () => {
  const overview = OVERVIEW_OPERATION;
  const optional = overview.optionalFields ?? new Set<string>();

  it("learns optional missing fields and leaves them, their unused fragments and variables out", () => {
    const errors = [
      { message: 'Cannot query field "eventRegistrations" on type "Viewer".' },
      { message: 'Cannot query field "imageUrl" on type "EnrolledCourse". Did you mean "slug"?' },
    ];
    expect(learnMissingFieldsFromRefusal(errors, optional)).toBe(true);
    expect(learnMissingFieldsFromRefusal(errors, optional)).toBe(false);
    expect(fieldsMissingAtSite()).toEqual(["EnrolledCourse.imageUrl", "Viewer.eventRegistrations"]);
    const document = documentForSite(overview.document, optional);
    expect(document).not.toMatch(/eventRegistrations|imageUrl|DashboardEventRegistration|\$eventsFirst/);
    expect(document).toMatch(/enrolledCourses\(first: \$coursesFirst\)/);
    expect(document).toMatch(/lastWatchedLecture/);
  });

  it("never drops a field the page needs: the query has failed", () => {
    expect(
      learnMissingFieldsFromRefusal(
        [{ message: 'Cannot query field "orders" on type "Viewer".' }],
        ORDERS_OPERATION.optionalFields ?? new Set(),
      ),
    ).toBe(false);
    expect(learnMissingFieldsFromRefusal([{ message: 'Cannot query field "slug" on type "EnrolledCourse".' }], optional)).toBe(false);
    expect(fieldsMissingAtSite()).toEqual([]);
    expect(documentForSite(overview.document, optional)).toBe(overview.document);
  });

  it("learns that a site lacks an order's payment link, and asks for orders without it", () => {
    const orders = ORDERS_OPERATION.optionalFields ?? new Set<string>();
    expect(learnMissingFieldsFromRefusal([{ message: 'Cannot query field "paymentUrl" on type "Order".' }], orders)).toBe(true);
    expect(documentForSite(ORDERS_OPERATION.document, orders)).not.toContain("paymentUrl");
  });

  it("learns nothing from a required field named missing beside an optional one, nor from another error about a field", () => {
    const imageUrl = new Set(["EnrolledCourse.imageUrl"]);
    const both = [
      { message: 'Cannot query field "imageUrl" on type "EnrolledCourse".' },
      { message: 'Cannot query field "slug" on type "EnrolledCourse".' },
    ];
    expect(learnMissingFieldsFromRefusal(both, imageUrl)).toBe(false);
    expect(
      learnMissingFieldsFromRefusal([{ message: 'Unknown argument "size" on field "imageUrl" on type "EnrolledCourse".' }], imageUrl),
    ).toBe(false);
    expect(fieldsMissingAtSite()).toEqual([]);
  });

  // A site on another GraphQL server words "no such field" its own way (checked against each one's source).
  it.each<[string, { message: string; extensions?: Record<string, unknown> }]>([
    [
      "graphql-ruby, by its extensions",
      { message: "Unexpected words", extensions: { code: "undefinedField", typeName: "EnrolledCourse", fieldName: "imageUrl" } },
    ],
    ["graphql-ruby, by its message (GitHub, Shopify)", { message: "Field 'imageUrl' doesn't exist on type 'EnrolledCourse'" }],
    [
      "graphql-java",
      {
        message:
          "Validation error (FieldUndefined@[viewer/enrolledCourses/nodes/imageUrl]) : " +
          "Field 'imageUrl' in type 'EnrolledCourse' is undefined",
      },
    ],
    [
      "Hot Chocolate",
      {
        message: "The field `imageUrl` does not exist on the type `EnrolledCourse`.",
        extensions: { type: "EnrolledCourse", field: "imageUrl" },
      },
    ],
    ["async-graphql and Juniper", { message: 'Unknown field "imageUrl" on type "EnrolledCourse". Did you mean "slug"?' }],
    ["Sangria", { message: "Cannot query field 'imageUrl' on type 'EnrolledCourse'." }],
  ])("learns a missing optional field from %s", (_server, error) => {
    expect(learnMissingFieldsFromRefusal([error], optional)).toBe(true);
    expect(fieldsMissingAtSite()).toEqual(["EnrolledCourse.imageUrl"]);
    expect(documentForSite(overview.document, optional)).not.toContain("imageUrl");
  });

  it("learns no required field in any server's words, and no name that is not a plain one", () => {
    for (const error of [
      { message: "Field 'slug' doesn't exist on type 'EnrolledCourse'" },
      { message: "x", extensions: { code: "undefinedField", typeName: "EnrolledCourse", fieldName: "slug" } },
      { message: "The field `slug` does not exist on the type `EnrolledCourse`." },
      { message: "x", extensions: { code: "undefinedField", typeName: "EnrolledCourse", fieldName: "image Url" } },
      { message: "x", extensions: { code: "undefinedField", typeName: 7, fieldName: "imageUrl" } },
    ]) {
      expect(learnMissingFieldsFromRefusal([error], optional), error.message).toBe(false);
    }
    expect(fieldsMissingAtSite()).toEqual([]);
  });

  it("leaves out a field only on its own type, only where the operation takes it as optional, and a selection left empty with it", () => {
    const document = "query Q { viewer { name enrolledCourses(first: 1) { nodes { slug name lastWatchedLecture { title } } } } }";
    const fitted = documentForSite(
      document,
      new Set(["EnrolledCourse.name", "LastWatchedLecture.title"]),
      new Set(["EnrolledCourse.name", "LastWatchedLecture.title", "Viewer.name"]),
    );
    // Viewer.name was named as lacking, but this operation does not take it as optional: it stays.
    expect(fitted.replace(/\s+/g, " ")).toBe("query Q { viewer { name enrolledCourses(first: 1) { nodes { slug } } } }");
  });
});
