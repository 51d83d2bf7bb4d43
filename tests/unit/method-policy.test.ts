import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { allowedMethods, readRouteTable, refuseMethod, routeMethodsOf, writeRouteTable } from "@/lib/http/method-policy";

const table = routeMethodsOf(process.cwd());

describe("method policy", () => {
  it("reads every API route and its exported handlers from app/, static paths before dynamic ones", () => {
    const byRoute = Object.fromEntries(table.map((entry) => [entry.route, entry.methods]));
    expect(byRoute).toMatchObject({
      "app/api/account/[resource]/route.ts": ["GET"],
      "app/api/account/connections/route.ts": ["GET"],
      "app/api/auth/logout/route.ts": ["POST"],
      "app/api/session/route.ts": ["GET"],
    });
    const routes = table.map((entry) => entry.route);
    expect(routes.indexOf("app/api/account/connections/route.ts")).toBeLessThan(routes.indexOf("app/api/account/[resource]/route.ts"));
  });

  it("the bundle's written table is the one derived from the route files", () => {
    const bundle = mkdtempSync(path.join(tmpdir(), "route-table-"));
    writeRouteTable(process.cwd(), bundle);
    expect(readRouteTable(bundle)).toEqual(table);
    expect(JSON.parse(readFileSync(path.join(bundle, "route-methods.json"), "utf8"))).toEqual(table);
  });

  it("refuses TRACE, PROPFIND and DELETE on pages with Allow: GET, HEAD", () => {
    for (const method of ["TRACE", "PROPFIND", "DELETE", "CONNECT", "OPTIONS"]) {
      expect(refuseMethod(method, "/settings", table)).toEqual({ status: 405, allow: "GET, HEAD" });
    }
    expect(refuseMethod("GET", "/settings", table)).toBeNull();
    expect(refuseMethod("HEAD", "/", table)).toBeNull();
  });

  it("refuses what an API route does not export, with its own Allow", () => {
    expect(refuseMethod("TRACE", "/api/session", table)).toEqual({ status: 405, allow: "GET, HEAD, OPTIONS" });
    expect(refuseMethod("GET", "/api/auth/logout/", table)).toEqual({ status: 405, allow: "OPTIONS, POST" });
    expect(refuseMethod("POST", "/api/auth/logout", table)).toBeNull();
    expect(allowedMethods("/api/account/connections", table)).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(allowedMethods("/api/account/orders", table)).toEqual(["GET", "HEAD", "OPTIONS"]);
  });

  it("leaves unknown API paths to Next.js's 404, and answers 404 itself where Next.js could not", () => {
    expect(refuseMethod("GET", "/api/nothing", table)).toBeNull();
    expect(refuseMethod("GET", "/api/account/orders/extra", table)).toBeNull();
    expect(refuseMethod("TRACE", "/api/nothing", table)).toEqual({ status: 404 });
  });
});
