import { describe, expect, it } from "vitest";

import { sanitizeReturnTo } from "@/lib/auth/return-to";

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
  ])("falls back to / for %s", (input) => {
    expect(sanitizeReturnTo(input, APP)).toBe("/");
  });
});
