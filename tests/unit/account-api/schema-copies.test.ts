import { buildSchema, printSchema } from "graphql";
import { describe, expect, it } from "vitest";

import { ASSUMED_ACCOUNT_SCHEMA_SDL } from "@/lib/account-api/schema";
import { ACCOUNT_SCHEMA_SDL } from "@/sandbox/account-graphql";

describe("the Account API schema", () => {
  it("the dashboard assumes exactly the schema the sandbox serves (docs/architecture.md section 5)", () => {
    expect(printSchema(buildSchema(ACCOUNT_SCHEMA_SDL))).toBe(printSchema(buildSchema(ASSUMED_ACCOUNT_SCHEMA_SDL)));
  });
});
