import { beforeAll, expect, it } from "vitest";

import { assertSameOriginRequest } from "@/lib/auth/csrf";
import { resetConfigForTests } from "@/lib/config";

import { configureDashboard, TEST_APP_URL } from "../../support/env";

beforeAll(() => {
  configureDashboard("http://127.0.0.1:4000");
  resetConfigForTests();
});

function post(headers: Record<string, string>) {
  return new Request(`${TEST_APP_URL}/api/auth/logout`, { method: "POST", headers });
}

it("accepts our own origin with the custom header", () => {
  expect(() => assertSameOriginRequest(post({ origin: TEST_APP_URL, "x-requested-with": "companion-dashboard" }))).not.toThrow();
});

it.each([
  [{ origin: "https://evil.example", "x-requested-with": "companion-dashboard" }, "origin"],
  [{ "x-requested-with": "companion-dashboard" }, "origin"],
  [{ origin: "null", "x-requested-with": "companion-dashboard" }, "origin"],
  [{ origin: TEST_APP_URL }, "header"],
  [{ origin: TEST_APP_URL, "x-requested-with": "XMLHttpRequest" }, "header"],
])("rejects %j", (headers, detail) => {
  expect(() => assertSameOriginRequest(post(headers))).toThrow(expect.objectContaining({ code: "csrf_rejected", detail }));
});
