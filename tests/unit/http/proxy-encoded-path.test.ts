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

describe("the request headers a page's render gets", () => {
  it("carry the proxy's own Content-Security-Policy, never one the request brought (CVE-2026-44581)", async () => {
    // Next.js takes the nonce of its inline scripts from the request's CSP header: a client's would pass through.
    const answer = await proxy(
      new NextRequest(`${TEST_APP_URL}/courses`, {
        headers: { "content-security-policy": "script-src 'nonce-evil'", "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" },
      }),
    );
    // Next.js hands the render the request headers the proxy set as x-middleware-request-<name>.
    expect(answer.headers.get("x-middleware-override-headers")?.split(",")).toContain("content-security-policy");
    const forwarded = answer.headers.get("x-middleware-request-content-security-policy");
    expect(forwarded).toBe(answer.headers.get("content-security-policy"));
    expect(forwarded).not.toContain("nonce-evil");
    expect(forwarded).toContain(`'nonce-${answer.headers.get("x-middleware-request-x-nonce")}'`);
  });

  it("checklist 67: carry a new nonce of 128 bits or more on each request, never one it brought, and are never stored", async () => {
    const brought = Buffer.from("a nonce of mine!!!").toString("base64");
    const nonces = new Set<string>();
    for (let request = 0; request < 20; request += 1) {
      const answer = await proxy(new NextRequest(`${TEST_APP_URL}/courses`, { headers: { "x-nonce": brought } }));
      const nonce = answer.headers.get("x-middleware-request-x-nonce") ?? "";
      // At least 128 bits (CSP Level 3 section 7.1: a nonce should be at least that); the proxy draws 144.
      expect(Buffer.from(nonce, "base64").length).toBeGreaterThanOrEqual(16);
      expect(answer.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);
      // A page with a nonce of its own is never stored, by the browser or a shared cache (checklist 48).
      expect(answer.headers.get("cache-control")).toBe("no-store");
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(20);
    expect(nonces.has(brought)).toBe(false);
  });

  it("carry no Content-Security-Policy the request brought on the way to the prerendered signed-out page either", async () => {
    const answer = await proxy(
      new NextRequest(`${TEST_APP_URL}/signed-out?reason=expired`, {
        headers: { "content-security-policy": "script-src 'nonce-evil'", "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" },
      }),
    );
    expect(answer.headers.get("x-middleware-rewrite")).toContain("/signed-out/en/page/expired/none");
    // The headers the router reads are the ones listed here: the request's own, less its CSP.
    const overridden = answer.headers.get("x-middleware-override-headers")?.split(",") ?? [];
    expect(overridden).toContain("sec-fetch-dest");
    expect(overridden).not.toContain("content-security-policy");
    expect(answer.headers.get("x-middleware-request-content-security-policy")).toBeNull();
    expect(answer.headers.get("content-security-policy")).not.toContain("nonce-");
  });
});
