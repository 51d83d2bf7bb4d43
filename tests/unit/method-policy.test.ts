import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { allowedMethods, API_ROUTE_METHODS, refuseMethod } from "@/lib/http/method-policy";

describe("method policy", () => {
  it.each(API_ROUTE_METHODS.map((entry) => [entry.route, entry.methods] as const))(
    "lists exactly the methods %s exports",
    (route, methods) => {
      const source = readFileSync(route, "utf8");
      const exported = [...source.matchAll(/export (?:(?:async )?function|const) (GET|HEAD|POST|PUT|DELETE|PATCH|OPTIONS)\b/g)].map(
        (match) => match[1],
      );
      expect(exported.sort()).toEqual([...methods].sort());
    },
  );

  it("refuses TRACE, PROPFIND and DELETE on pages with Allow: GET, HEAD", () => {
    for (const method of ["TRACE", "PROPFIND", "DELETE", "CONNECT", "OPTIONS"]) {
      expect(refuseMethod(method, "/settings")).toEqual({ status: 405, allow: "GET, HEAD" });
    }
    expect(refuseMethod("GET", "/settings")).toBeNull();
    expect(refuseMethod("HEAD", "/")).toBeNull();
  });

  it("refuses what an API route does not export, with its own Allow", () => {
    expect(refuseMethod("TRACE", "/api/session")).toEqual({ status: 405, allow: "GET, HEAD, OPTIONS" });
    expect(refuseMethod("GET", "/api/auth/logout/")).toEqual({ status: 405, allow: "OPTIONS, POST" });
    expect(refuseMethod("POST", "/api/auth/logout")).toBeNull();
    expect(allowedMethods("/api/account/connections")).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(allowedMethods("/api/account/orders")).toEqual(["GET", "HEAD", "OPTIONS"]);
  });

  it("leaves unknown API paths to Next.js's 404, and answers 404 itself where Next.js could not", () => {
    expect(refuseMethod("GET", "/api/nothing")).toBeNull();
    expect(refuseMethod("TRACE", "/api/nothing")).toEqual({ status: 404 });
  });
});
