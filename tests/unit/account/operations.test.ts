import { buildSchema, Kind, parse, validate, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { ACCOUNT_OPERATIONS } from "@/lib/account/operations";
import { ASSUMED_ACCOUNT_SCHEMA_SDL } from "@/lib/account/schema";

const schema = buildSchema(ASSUMED_ACCOUNT_SCHEMA_SDL);

describe("ACCOUNT_OPERATIONS", () => {
  it("has one named operation per page", () => {
    const nameOf = (document: string) =>
      parse(document).definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION ? [definition.name?.value] : []));
    expect(Object.fromEntries(Object.entries(ACCOUNT_OPERATIONS).map(([key, op]) => [key, nameOf(op.document)]))).toEqual({
      overview: ["DashboardOverview"],
      courses: ["DashboardCourses"],
      orders: ["DashboardOrders"],
      events: ["DashboardEvents"],
    });
  });

  it.each(Object.entries(ACCOUNT_OPERATIONS))("%s: the document is valid against the Account API schema", (_key, operation) => {
    const document = parse(operation.document);
    expect(validate(schema, document)).toEqual([]);
    const operations = document.definitions.filter(
      (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
    );
    expect(operations).toHaveLength(1);
    expect(operations[0]?.operation).toBe("query");
  });
});
