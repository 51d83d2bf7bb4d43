/**
 * What the dashboard learns of a site (the cap on `first`, the optional fields it lacks) is one lesson
 * for the whole process. Next.js bundles the pages and the route handlers apart, each with its own copy
 * of a module; a fresh import here stands for another bundle's copy, and it must know the lesson too,
 * or a data route asks the site again for what the page's render was already refused.
 */
import { afterEach, describe, expect, it } from "vitest";

import type * as PagingModule from "@/lib/account-api/paging";
import type * as SchemaFittingModule from "@/lib/account-api/schema-fitting";

import { anotherBundlesCopy } from "../../support/another-bundle";

type Paging = typeof PagingModule;
type SchemaFitting = typeof SchemaFittingModule;

afterEach(async () => {
  (await anotherBundlesCopy<Paging>("@/lib/account-api/paging")).forgetPageCapForTests();
  (await anotherBundlesCopy<SchemaFitting>("@/lib/account-api/schema-fitting")).forgetMissingFieldsForTests();
});

describe("lessons from the site, one per process", () => {
  it("a cap on `first` learned by one bundle lowers the next bundle's page size", async () => {
    const pageRender = await anotherBundlesCopy<Paging>("@/lib/account-api/paging");
    expect(pageRender.learnPageCapFromRefusal([{ message: "first must be between 1 and 5" }], 20)).toBe(true);
    const dataRoute = await anotherBundlesCopy<Paging>("@/lib/account-api/paging");
    expect(dataRoute).not.toBe(pageRender);
    expect(dataRoute.learnedPageCap()).toBe(5);
    expect(dataRoute.pageSizeWithinCap(20)).toBe(5);
  });

  it("an optional field the site lacks, learned by one bundle, is left out by the next", async () => {
    const pageRender = await anotherBundlesCopy<SchemaFitting>("@/lib/account-api/schema-fitting");
    const optional = new Set(["EnrolledCourse.imageUrl"]);
    expect(
      pageRender.learnMissingFieldsFromRefusal([{ message: 'Cannot query field "imageUrl" on type "EnrolledCourse".' }], optional),
    ).toBe(true);
    const dataRoute = await anotherBundlesCopy<SchemaFitting>("@/lib/account-api/schema-fitting");
    expect(dataRoute).not.toBe(pageRender);
    expect(dataRoute.fieldsMissingAtSite()).toEqual(["EnrolledCourse.imageUrl"]);
    const document = "query Q { viewer { enrolledCourses(first: 1) { nodes { slug imageUrl } } } }";
    expect(dataRoute.documentForSite(document, optional)).not.toContain("imageUrl");
  });
});
