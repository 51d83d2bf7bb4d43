/**
 * What the dashboard learns of a site (the cap on `first`, the optional fields it lacks) is one lesson
 * for the whole process. Next.js bundles the pages and the route handlers apart, each with its own copy
 * of a module; a fresh import here stands for another bundle's copy, and it must know the lesson too,
 * or a data route asks the site again for what the page's render was already refused.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

import type * as PagingModule from "@/lib/account-api/paging";
import type * as SchemaFittingModule from "@/lib/account-api/schema-fitting";

type Paging = typeof PagingModule;
type SchemaFitting = typeof SchemaFittingModule;

/** The module as another bundle loads it: a copy of its own. */
async function anotherCopy<T>(path: string): Promise<T> {
  vi.resetModules();
  return (await import(/* @vite-ignore */ path)) as T;
}

afterEach(async () => {
  (await anotherCopy<Paging>("@/lib/account-api/paging")).forgetPageCapForTests();
  (await anotherCopy<SchemaFitting>("@/lib/account-api/schema-fitting")).forgetMissingFieldsForTests();
});

describe("lessons from the site, one per process", () => {
  it("a cap on `first` learned by one bundle lowers the next bundle's page size", async () => {
    const pageRender = await anotherCopy<Paging>("@/lib/account-api/paging");
    expect(pageRender.learnPageCapFromRefusal([{ message: "first must be between 1 and 5" }], 20)).toBe(true);
    const dataRoute = await anotherCopy<Paging>("@/lib/account-api/paging");
    expect(dataRoute).not.toBe(pageRender);
    expect(dataRoute.learnedPageCap()).toBe(5);
    expect(dataRoute.pageSizeWithinCap(20)).toBe(5);
  });

  it("an optional field the site lacks, learned by one bundle, is left out by the next", async () => {
    const pageRender = await anotherCopy<SchemaFitting>("@/lib/account-api/schema-fitting");
    const optional = new Set(["EnrolledCourse.imageUrl"]);
    expect(
      pageRender.learnMissingFieldsFromRefusal([{ message: 'Cannot query field "imageUrl" on type "EnrolledCourse".' }], optional),
    ).toBe(true);
    const dataRoute = await anotherCopy<SchemaFitting>("@/lib/account-api/schema-fitting");
    expect(dataRoute).not.toBe(pageRender);
    expect(dataRoute.fieldsMissingAtSite()).toEqual(["EnrolledCourse.imageUrl"]);
    const document = "query Q { viewer { enrolledCourses(first: 1) { nodes { slug imageUrl } } } }";
    expect(dataRoute.documentForSite(document, optional)).not.toContain("imageUrl");
  });
});
