import { closeSync, fstatSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { allowedMethods, readRouteTable, refuseMethod, replaceFile, routeMethodsOf, writeRouteTable } from "@/lib/http/method-policy";

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

  it("rewriting the table never shows a reader an empty or half-written one: the new file replaces the old whole", () => {
    // Every start writes the table again while other instances of the bundle start and read it.
    const bundle = mkdtempSync(path.join(tmpdir(), "route-table-"));
    writeRouteTable(process.cwd(), bundle);
    const file = path.join(bundle, "route-methods.json");
    const reader = openSync(file, "r");
    try {
      writeRouteTable(process.cwd(), bundle);
      // Another file took its name: an instance that opened the table before still reads the whole old one,
      // where an in-place rewrite would have emptied it under the reader before writing it again.
      expect(statSync(file).ino).not.toBe(fstatSync(reader).ino);
      const buffer = Buffer.alloc(1 << 20);
      const read = readSync(reader, buffer, 0, buffer.length, 0);
      expect(JSON.parse(buffer.subarray(0, read).toString("utf8"))).toEqual(table);
    } finally {
      closeSync(reader);
    }
    expect(readRouteTable(bundle)).toEqual(table);
    expect(readdirSync(bundle)).toEqual(["route-methods.json"]);
  });

  it("the first start writes the method guard into a bundle that has no folder for it yet", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "bundle-")), "scripts", "method-guard.ts");
    replaceFile(file, "guard");
    expect(readFileSync(file, "utf8")).toBe("guard");
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
