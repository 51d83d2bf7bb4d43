import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";

import { config, proxy } from "@/proxy";

import { configureDashboard, TEST_APP_URL } from "../../support/env";

beforeAll(() => configureDashboard("https://school.example"));

/** The proxy's matchers as Next.js compiles them: a path-to-regexp source, its `:name(pattern)` as a group. */
function matchedByProxy(pathname: string): boolean {
  return config.matcher.some((source) => {
    const pattern = source.replace(/:\w+\(([^)]*)\)/g, "($1)");
    return new RegExp(`^${pattern}$`).test(pathname);
  });
}

describe("a data route's path with a percent sign", () => {
  it("is answered 404 'no such page' when its encoding is malformed, before Next.js's router decodes it", async () => {
    for (const path of ["/api/account/%ZZ", "/api/account/courses%E0", "/api/account/%E0%A4%A"]) {
      const answer = await proxy(new NextRequest(`${TEST_APP_URL}${path}`));
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get("cache-control"), path).toBe("no-store");
      expect(await answer.json(), path).toEqual({ error: { code: "not_found", message: "There is no such account page." } });
    }
  });

  it("goes on to the route unchanged when its encoding is well formed", async () => {
    const answer = await proxy(new NextRequest(`${TEST_APP_URL}/api/account/%63ourses`));
    expect(answer.headers.get("x-middleware-next")).toBe("1");
    expect(answer.headers.get("content-security-policy")).toBeNull();
  });

  it("is the only API path the proxy sees: a data request without one never pays for it", () => {
    expect(matchedByProxy("/api/account/%ZZ")).toBe(true);
    expect(matchedByProxy("/api/account/courses")).toBe(false);
    expect(matchedByProxy("/api/session")).toBe(false);
    expect(matchedByProxy("/api/auth/%ZZ")).toBe(false);
    expect(matchedByProxy("/courses")).toBe(true);
  });
});
