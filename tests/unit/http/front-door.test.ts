import http from "node:http";
import { connect, type AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { API_SECURITY_HEADERS } from "@/lib/http/api-security-headers";
import { serveAtFrontDoor } from "@/lib/http/front-door-route";
// Loaded as in production (`node --import ./scripts/method-guard.ts server.js`): from here on, every
// server this worker creates is behind the method guard and its front door.
import "@/scripts/method-guard";

/** What the front door handed to the handler, per path. */
const seen = new Map<string, { url: string; method: string; cookie: string | null }>();

function remember(request: Request): void {
  seen.set(new URL(request.url).pathname, { url: request.url, method: request.method, cookie: request.headers.get("cookie") });
}

let server: http.Server;
let origin: string;
let port: number;

beforeAll(async () => {
  serveAtFrontDoor("/api/account/courses", (request) => {
    remember(request);
    return Promise.resolve(Response.json({ servedBy: "handler" }, { headers: { "cache-control": "no-store" } }));
  });
  serveAtFrontDoor("/api/account/orders", () => {
    const headers = new Headers({ "content-type": "application/json" });
    headers.append("set-cookie", "first=1; Path=/; HttpOnly");
    headers.append("set-cookie", "second=2; Path=/; HttpOnly");
    return Promise.resolve(new Response("{}", { headers }));
  });
  serveAtFrontDoor("/api/account/events", () => {
    return Promise.reject(new Error("a bug with a stack trace at /srv/dashboard/lib/secret.ts:12"));
  });
  serveAtFrontDoor("/api/account/overview", () => {
    const gzipped = gzipSync(Buffer.from(JSON.stringify({ items: Array.from({ length: 500 }, (_, index) => `course ${index}`) })));
    return Promise.resolve(new Response(gzipped, { headers: { "content-type": "application/json", "content-encoding": "gzip" } }));
  });
  // Next.js's own listener, as the method guard sees it: whatever it does not take goes here.
  server = http.createServer((_request, response) =>
    response.writeHead(200, { "content-type": "text/plain", "content-length": "7" }).end("next.js"),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});

afterAll(() => server.close());

/** One request written byte for byte (what a client library would normalise), read until the server closes. */
function rawRequest(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("the front door", () => {
  it("answers a GET of an open path with its handler, ahead of Next.js, on the URL and headers as sent", async () => {
    const response = await fetch(`${origin}/api/account/courses?after=abc`, { headers: { cookie: "companion_session=sealed" } });
    expect(await response.json()).toEqual({ servedBy: "handler" });
    expect(seen.get("/api/account/courses")).toEqual({
      url: `${origin}/api/account/courses?after=abc`,
      method: "GET",
      cookie: "companion_session=sealed",
    });
  });

  it("adds the API security headers Next.js adds to its API answers (next.config.mjs), errors included", async () => {
    for (const path of ["/api/account/courses", "/api/account/events"]) {
      const response = await fetch(`${origin}${path}`);
      for (const { key, value } of API_SECURITY_HEADERS) expect(response.headers.get(key), `${path}: ${key}`).toBe(value);
      await response.arrayBuffer();
    }
  });

  it("keeps every Set-Cookie of the handler's answer", async () => {
    const response = await fetch(`${origin}/api/account/orders`);
    expect(response.headers.getSetCookie()).toEqual(["first=1; Path=/; HttpOnly", "second=2; Path=/; HttpOnly"]);
  });

  it("passes an answer the handler compressed through as it is", async () => {
    const answer = await rawRequest("GET /api/account/overview HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip");
    expect(answer).toMatch(/\r\ncontent-encoding: gzip\r\n/i);
    const response = await fetch(`${origin}/api/account/overview`);
    expect(((await response.json()) as { items: string[] }).items).toHaveLength(500);
  });

  it("answers a handler that throws with the API's JSON error: 500, no stack trace, no path", async () => {
    const response = await fetch(`${origin}/api/account/events`);
    expect(response.status).toBe(500);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "unexpected", message: expect.any(String) as string } });
    expect(text).not.toMatch(/secret|stack|\.ts/);
  });

  it("stays behind the method guard: a method the route does not take gets 405 with Allow, never the handler", async () => {
    seen.clear();
    const answer = await rawRequest("POST /api/account/courses HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0");
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer).toMatch(/\r\nallow: GET, HEAD, OPTIONS\r\n/i);
    expect(seen.size).toBe(0);
  });

  it.each([
    ["HEAD", "HEAD /api/account/courses HTTP/1.1\r\nHost: 127.0.0.1"],
    ["a trailing slash", "GET /api/account/courses/ HTTP/1.1\r\nHost: 127.0.0.1"],
    ["another letter case", "GET /api/account/Courses HTTP/1.1\r\nHost: 127.0.0.1"],
    ["a percent-encoded letter", "GET /api/account/%63ourses HTTP/1.1\r\nHost: 127.0.0.1"],
    ["a doubled slash", "GET /api//account/courses HTTP/1.1\r\nHost: 127.0.0.1"],
    ["a dot segment", "GET /api/account/./courses HTTP/1.1\r\nHost: 127.0.0.1"],
    ["the absolute form", "GET http://127.0.0.1/api/account/courses HTTP/1.1\r\nHost: 127.0.0.1"],
    ["a path no route opened", "GET /api/account/connections HTTP/1.1\r\nHost: 127.0.0.1"],
    ["no Host header", "GET /api/account/courses HTTP/1.0"],
    ["a Host header that is not a host", "GET /api/account/courses HTTP/1.1\r\nHost: evil.example/../x"],
  ])("leaves a request to Next.js, as it always went: %s", async (_case, head) => {
    seen.clear();
    const answer = await rawRequest(head);
    expect(answer).toMatch(/^HTTP\/1\.[01] 200 OK/);
    if (!head.startsWith("HEAD")) expect(answer.endsWith("next.js")).toBe(true);
    expect(seen.size).toBe(0);
  });
});
