import { buildSchema, Kind, parse, validate, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { ACCOUNT_PAGE_DESCRIPTORS } from "@/lib/account/pages/registry";
import { ASSUMED_ACCOUNT_SCHEMA_SDL } from "@/lib/account/schema";
import { ACCOUNT_PAGES } from "@/lib/contract/account-pages";

const schema = buildSchema(ASSUMED_ACCOUNT_SCHEMA_SDL);
const descriptors = Object.entries(ACCOUNT_PAGE_DESCRIPTORS);

/** The largest `first` the Account API is documented to accept (docs/architecture.md section 5); a site may cap lower. */
const DOCUMENTED_MAXIMUM_PAGE_SIZE = 100;

describe("the account pages' descriptors", () => {
  it("describe exactly the pages the browser knows (lib/contract/account-pages.ts)", () => {
    expect(Object.keys(ACCOUNT_PAGE_DESCRIPTORS).sort()).toEqual(Object.keys(ACCOUNT_PAGES).sort());
  });

  it("are each answered by the one data route, GET /api/account/[resource], under the page's key", () => {
    for (const [key, page] of Object.entries(ACCOUNT_PAGES)) expect(page.path).toBe(`/api/account/${key}`);
  });

  it("have one named operation per page", () => {
    const nameOf = (document: string) =>
      parse(document).definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION ? [definition.name?.value] : []));
    expect(Object.fromEntries(descriptors.map(([key, page]) => [key, nameOf(page.operation.document)]))).toEqual({
      overview: ["DashboardOverview"],
      courses: ["DashboardCourses"],
      orders: ["DashboardOrders"],
      events: ["DashboardEvents"],
    });
  });

  it.each(descriptors)("%s: the document is valid against the Account API schema", (_key, page) => {
    const document = parse(page.operation.document);
    expect(validate(schema, document)).toEqual([]);
    const operations = document.definitions.filter(
      (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
    );
    expect(operations).toHaveLength(1);
    expect(operations[0]?.operation).toBe("query");
  });

  it.each(descriptors)("%s: its variables declare every variable of its document, and only those", (_key, page) => {
    const [operation] = parse(page.operation.document).definitions.filter(
      (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
    );
    const declared = (operation?.variableDefinitions ?? []).map((definition) => definition.variable.name.value).sort();
    expect(Object.keys(page.variables("cursor", page.pageSize)).sort()).toEqual(declared);
  });

  it.each(descriptors)("%s: asks for a page within the documented limit, as the page sizes it declares", (_key, page) => {
    expect(Number.isInteger(page.pageSize)).toBe(true);
    expect(page.pageSize).toBeGreaterThanOrEqual(1);
    expect(page.pageSize).toBeLessThanOrEqual(DOCUMENTED_MAXIMUM_PAGE_SIZE);
    const numbers = Object.entries(page.variables(null, page.pageSize)).filter(([, value]) => typeof value === "number");
    expect(numbers.length).toBeGreaterThan(0);
    for (const [name, value] of numbers) {
      // A number not declared as a page size would escape the cap the site named (lib/site/account-api.ts).
      expect(page.operation.pageSizeVariables).toContain(name);
      expect(value).toBe(page.pageSize);
    }
  });
});
