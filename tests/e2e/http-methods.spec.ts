import { connect } from "node:net";

import { expect, test } from "./test";
import { computeCacheBustingSearchParam } from "next/dist/shared/lib/router/utils/cache-busting-search-param.js";

import { APP_URL } from "./support";

/** Sends one raw HTTP/1.1 request line (any method, even ones no HTTP client will send) and reads the status and headers. */
function rawRequest(
  method: string,
  path: string,
  headerLines = "",
): Promise<{ status: number; headers: Record<string, string>; raw: string }> {
  const { hostname, port } = new URL(APP_URL);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname === "localhost" ? "127.0.0.1" : hostname, port: Number(port) });
    let raw = "";
    socket.setTimeout(15_000, () => socket.destroy(new Error(`${method} ${path}: no answer`)));
    socket.on("connect", () =>
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: ${new URL(APP_URL).host}\r\n${headerLines}Connection: close\r\n\r\n`),
    );
    socket.on("data", (chunk: Buffer) => (raw += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = ""] = raw.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, raw });
    });
  });
}

const PAGES = ["/", "/settings", "/settings/revoke", "/sign-in-problem"];
const API = [
  ["/api/session", "GET, HEAD, OPTIONS"],
  ["/api/health", "GET, HEAD, OPTIONS"],
  ["/api/account/courses", "GET, HEAD, OPTIONS"],
  ["/api/auth/login", "GET, HEAD, OPTIONS"],
  ["/api/auth/logout", "OPTIONS, POST"],
  ["/api/auth/revoke", "OPTIONS, POST"],
  ["/api/auth/embedded", "OPTIONS, POST"],
] as const;

test("TRACE, PROPFIND, CONNECT and DELETE get 405 with Allow on pages and API routes, never 500", async () => {
  for (const method of ["TRACE", "PROPFIND", "CONNECT", "DELETE", "MKCOL"]) {
    for (const path of PAGES) {
      const answer = await rawRequest(method, path);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.allow, `${method} ${path}`).toBe("GET, HEAD");
    }
    for (const [path, allow] of API) {
      const answer = await rawRequest(method, path);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.allow, `${method} ${path}`).toBe(allow);
    }
  }
});

test("an unknown verb is a 400, and no odd method shows a stack trace", async () => {
  for (const method of ["FOO", "TRACK", "BREW"]) {
    for (const path of ["/", "/api/session"]) {
      const answer = await rawRequest(method, path);
      expect([400, 405], `${method} ${path}`).toContain(answer.status);
      expect(answer.raw).not.toMatch(/TypeError|at .*\.js:\d+/);
    }
  }
});

test("a malformed percent-encoding in a path is a page no one has, never a 500", async () => {
  // The data route's dynamic segment is decoded by Next.js's router before any handler: the proxy answers first.
  for (const path of ["/api/account/%ZZ", "/api/account/courses%E0", "/api/account/%E0%A4%A?after=x"]) {
    const answer = await rawRequest("GET", path);
    expect(answer.status, path).toBe(404);
    expect(answer.headers["content-type"], path).toContain("application/json");
    expect(answer.headers["cache-control"], path).toBe("no-store");
    expect(answer.headers["x-content-type-options"], path).toBe("nosniff");
    expect(answer.raw, path).toContain('{"error":{"code":"not_found","message":"There is no such account page."}}');
  }
  for (const path of ["/%ZZ", "/courses/%E0%A4%A", "/signed-out/%ZZ/page/expired/none", "/api/auth/%ZZ"]) {
    expect((await rawRequest("GET", path)).status, path).toBe(404);
  }
  // A well-formed encoding of a page's key still reaches the route ("%63ourses" is "courses"): no session, 401.
  expect((await rawRequest("GET", "/api/account/%63ourses")).status).toBe(401);
});

test("an RSC request whose router state Next.js cannot read is a 400, never a 500", async () => {
  for (const tree of ["%ZZ", encodeURIComponent('["", {'), encodeURIComponent(JSON.stringify({ children: [] }))]) {
    // With the `_rsc` value Next.js's router expects for these headers, so that only the tree is wrong.
    const rsc = await computeCacheBustingSearchParam(undefined, undefined, tree, undefined);
    const answer = await rawRequest("GET", `/courses?_rsc=${rsc}`, `RSC: 1\r\nNext-Router-State-Tree: ${tree}\r\n`);
    expect(answer.status, tree).toBe(400);
    expect(answer.raw, tree).not.toMatch(/at .*\.js:\d+|Error/);
  }
});

test("the methods a path answers still work", async ({ request }) => {
  expect((await request.get("/api/health")).status()).toBe(200);
  expect((await request.head("/")).status()).toBe(200);
  expect((await request.fetch("/api/auth/logout", { method: "OPTIONS" })).headers().allow).toBe("OPTIONS, POST");
  expect((await request.post("/api/auth/logout")).status()).toBe(403);
});
