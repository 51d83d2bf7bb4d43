import { buildSchema, Kind, parse, validate, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";

import type { AccountOperation } from "@/lib/account-api/operation";
import { COURSES_OPERATION } from "@/lib/account-api/pages/courses";
import { EVENTS_OPERATION } from "@/lib/account-api/pages/events";
import { ORDERS_OPERATION } from "@/lib/account-api/pages/orders";
import { OVERVIEW_OPERATION } from "@/lib/account-api/pages/overview";
import { accountPageKeyOf, isAccountPageKey } from "@/lib/account-api/registry";
import { ASSUMED_ACCOUNT_SCHEMA_SDL } from "@/lib/account-api/schema";

const schema = buildSchema(ASSUMED_ACCOUNT_SCHEMA_SDL);

/** What each page sends (tests/unit/site/page-sizes.test.ts checks that these are what the pages really send). */
const operations: [string, AccountOperation<unknown>][] = [
  ["DashboardOverview", OVERVIEW_OPERATION],
  ["DashboardCourses", COURSES_OPERATION],
  ["DashboardOrders", ORDERS_OPERATION],
  ["DashboardEvents", EVENTS_OPERATION],
];

function operationsOf(document: string): OperationDefinitionNode[] {
  return parse(document).definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
}

describe("the account pages' operations", () => {
  it.each(operations)("%s: one named query, valid against the Account API schema", (name, operation) => {
    expect(validate(schema, parse(operation.document))).toEqual([]);
    const [only, ...others] = operationsOf(operation.document);
    expect(others).toEqual([]);
    expect(only?.operation).toBe("query");
    expect(only?.name?.value).toBe(name);
  });

  it.each(operations)("%s: its page-size variables are Int variables of its document", (_name, operation) => {
    const declared = new Map(
      (operationsOf(operation.document)[0]?.variableDefinitions ?? []).map((definition) => [
        definition.variable.name.value,
        definition.type.kind === Kind.NON_NULL_TYPE && definition.type.type.kind === Kind.NAMED_TYPE ? definition.type.type.name.value : "",
      ]),
    );
    for (const name of operation.pageSizeVariables ?? []) expect(declared.get(name), name).toBe("Int");
  });

  it.each(operations)("%s: every optional field it may lose is a field of the schema", (_name, operation) => {
    for (const field of operation.optionalFields ?? []) {
      const [type = "", name = ""] = field.split(".");
      const fields = (schema.getType(type) as { getFields?: () => Record<string, unknown> } | undefined)?.getFields?.() ?? {};
      expect(Object.keys(fields), field).toContain(name);
    }
  });
});

describe("the account pages' names", () => {
  it("knows the four pages and nothing an object inherits (toString, constructor, __proto__)", () => {
    expect(["overview", "courses", "orders", "events"].every(isAccountPageKey)).toBe(true);
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
      expect(isAccountPageKey(name)).toBe(false);
      expect(() => accountPageKeyOf(name)).toThrow(expect.objectContaining({ code: "not_found" }) as Error);
    }
  });
});
