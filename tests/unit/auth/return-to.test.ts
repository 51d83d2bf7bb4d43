import { beforeAll, describe, expect, it } from "vitest";

import { MAX_RETURN_TO_LENGTH, sanitizeReturnTo } from "@/lib/contract/return-to";
import { resetConfigForTests } from "@/lib/config";
import { appRedirect } from "@/lib/http/auth-redirects";

import { configureDashboard, TEST_APP_URL } from "../../support/env";

const APP = "https://dashboard.example.com";

describe("returnTo", () => {
  it.each([
    ["/courses", "/courses"],
    ["/orders?page=2#top", "/orders?page=2#top"],
    [null, "/"],
    ["", "/"],
  ])("keeps the same-origin path %s", (input, expected) => {
    expect(sanitizeReturnTo(input, APP)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example",
    "http://dashboard.example.com.evil.example/",
    "%2F%2Fevil.example",
    "/%2F/evil.example",
    "%2f%5cevil.example",
    "/%5Cevil.example",
    "%252F%252Fevil.example",
    "javascript:alert(1)",
    "/\tevil",
    "/\n/evil.example",
    " //evil.example",
    "/api/auth/login?returnTo=//evil",
    "%E0%A4%A",
    // Dot segments the URL parser removes: the path it returns would start with "//".
    "/a/..//evil.example",
    "/a/../..//evil.example/x?y=1",
    "/.//evil.example",
    "/a/%2e%2e//evil.example",
    "/a/.%2E//evil.example",
    "/%2e/..//evil.example",
    "/courses/%2E%2E//evil.example#top",
    // Triple encoding, malformed encoding after a leading "/", a DEL, no leading "/".
    "/%25252Fevil.example",
    "/%E0%A4%A",
    "/a\u007fb",
    "courses",
  ])("falls back to / for %s", (input) => {
    expect(sanitizeReturnTo(input, APP)).toBe("/");
  });

  it(`keeps a path of up to ${MAX_RETURN_TO_LENGTH} characters, no longer`, () => {
    const path = (length: number) => `/${"a".repeat(length - 1)}`;
    expect(sanitizeReturnTo(path(MAX_RETURN_TO_LENGTH), APP)).toBe(path(MAX_RETURN_TO_LENGTH));
    expect(sanitizeReturnTo(path(MAX_RETURN_TO_LENGTH + 1), APP)).toBe("/");
  });
});

describe("appRedirect", () => {
  beforeAll(() => {
    configureDashboard("http://127.0.0.1:9");
    resetConfigForTests();
  });

  it("redirects to a page of the dashboard", () => {
    expect(appRedirect("/orders?page=2").headers.get("location")).toBe(`${TEST_APP_URL}/orders?page=2`);
  });

  it.each(["//evil.example/x", "https://evil.example/", "/\\evil.example", "http://localhost:3998/"])(
    "refuses the target %s whose origin is not APP_URL",
    (target) => {
      const response = appRedirect(target);
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe(`${TEST_APP_URL}/`);
    },
  );
});
