import { beforeAll, describe, expect, it } from "vitest";

import { resetConfigForTests } from "@/lib/config";
import { baseSecurityHeaders, contentSecurityPolicy, isNeverFramable } from "@/lib/http/security-headers";

import { configureDashboard } from "../support/env";

beforeAll(() => {
  configureDashboard("http://127.0.0.1:9", { EMBED_ORIGINS: "https://school.example" });
  resetConfigForTests();
});

describe("framing policy by path", () => {
  it.each([
    "/settings/revoke",
    "/settings/revoke/",
    "/settings/%72evoke",
    "/settings/%2572evoke",
    "/settings%2Frevoke",
    "//settings//revoke",
    "/settings/./revoke",
    "/settings/%2e/revoke",
    "/Settings/Revoke",
    "/auth/popup-done/",
    "/auth/%70opup-done",
    "/sign-in-problem/",
    "/sign-%69n-problem",
  ])("never frames %s", (pathname) => {
    expect(isNeverFramable(pathname)).toBe(true);
    expect(contentSecurityPolicy("n0nce", pathname, false)).toContain("frame-ancestors 'none'");
    expect(baseSecurityHeaders(pathname)["x-frame-options"]).toBe("DENY");
  });

  it.each(["/", "/settings", "/courses", "/settings/revoke-other", "/settings/%7"])("lets the embedding site frame %s", (pathname) => {
    expect(isNeverFramable(pathname)).toBe(false);
    expect(contentSecurityPolicy("n0nce", pathname, false)).toContain("frame-ancestors 'self' https://school.example");
  });
});
