import http from "node:http";
import { connect, type AddressInfo } from "node:net";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Loaded as in production (`node --import ./scripts/method-guard.ts server.js`): from here on, every
// server this worker creates is behind the method guard.
import { checkedRouterStateCount } from "@/scripts/method-guard";

let server: http.Server;
let port: number;
const seen: string[] = [];

beforeAll(async () => {
  // Next.js's own listener, as the method guard sees it: whatever it does not refuse goes here.
  server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    response.writeHead(200, { "content-type": "text/plain", "content-length": "7" }).end("next.js");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
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

describe("the method guard", () => {
  it("answers a method the route does not export with 405 and its Allow, never reaching Next.js", async () => {
    seen.length = 0;
    const answer = await rawRequest("POST /api/account/courses HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0");
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer).toMatch(/\r\nallow: GET, HEAD, OPTIONS\r\n/i);
    expect(seen).toEqual([]);
  });

  it("answers TRACE on a page 405 with Allow: GET, HEAD, and CONNECT without opening a tunnel", async () => {
    expect(await rawRequest("TRACE /settings HTTP/1.1\r\nHost: 127.0.0.1")).toMatch(/^HTTP\/1\.1 405 [^]*\r\nallow: GET, HEAD\r\n/i);
    expect(await rawRequest("CONNECT /api/session HTTP/1.1\r\nHost: 127.0.0.1")).toMatch(
      /^HTTP\/1\.1 405 [^]*\r\nAllow: GET, HEAD, OPTIONS\r\n/,
    );
    expect(seen).toEqual([]);
  });

  it.each(["/_next/static/chunks/app.js", "/__nextjs_original-stack-frames"])(
    "refuses a POST to %s like any page's: only under next dev are Next.js's own endpoints left to it",
    async (path) => {
      seen.length = 0;
      expect(await rawRequest(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0`)).toMatch(
        /^HTTP\/1\.1 405 [^]*\r\nallow: GET, HEAD\r\n/i,
      );
      expect(seen).toEqual([]);
    },
  );

  it.each([
    ["not percent-encoded", "%ZZ"],
    ["not JSON", encodeURIComponent('["", {')],
    ["JSON of another shape", encodeURIComponent(JSON.stringify({ children: [] }))],
    ["a segment of the wrong type", encodeURIComponent(JSON.stringify(["", { children: [5, {}] }]))],
  ])("answers 400 to a router state Next.js cannot read (%s), which Next.js would answer 500", async (_case, tree) => {
    seen.length = 0;
    const answer = await rawRequest(`GET /courses?_rsc=x HTTP/1.1\r\nHost: 127.0.0.1\r\nRSC: 1\r\nNext-Router-State-Tree: ${tree}`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 [^]*\r\n\r\n[^]*Bad request\./);
    expect(answer).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(seen).toEqual([]);
  });

  it("checks each router state once: asked again, it gives the same answer without checking again", async () => {
    const readable = encodeURIComponent(JSON.stringify(["", { children: ["orders", { children: ["__PAGE__", {}] }] }, null, null, 1]));
    const unreadable = encodeURIComponent(JSON.stringify(["", { children: ["orders", 7] }]));
    const tabClick = (tree: string) =>
      rawRequest(`GET /orders?_rsc=y HTTP/1.1\r\nHost: 127.0.0.1\r\nRSC: 1\r\nNext-Router-State-Tree: ${tree}`);
    const before = checkedRouterStateCount();
    for (let round = 0; round < 2; round += 1) {
      seen.length = 0;
      expect(await tabClick(readable)).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(seen).toEqual(["GET /orders?_rsc=y"]);
      expect(await tabClick(unreadable)).toMatch(/^HTTP\/1\.1 400 /);
      expect(checkedRouterStateCount()).toBe(before + 2);
    }
  });

  it.each([
    ["a GET of a data route", "GET /api/account/courses?after=abc HTTP/1.1\r\nHost: 127.0.0.1"],
    ["a HEAD", "HEAD /api/account/courses HTTP/1.1\r\nHost: 127.0.0.1"],
    ["a POST the route takes", "POST /api/auth/logout HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0"],
    ["an unknown API path (Next.js answers 404)", "GET /api/nothing HTTP/1.1\r\nHost: 127.0.0.1"],
    [
      "a tab click's router state",
      `GET /courses?_rsc=x HTTP/1.1\r\nHost: 127.0.0.1\r\nRSC: 1\r\nNext-Router-State-Tree: ${encodeURIComponent(
        JSON.stringify(["", { children: ["(member)", { children: ["__PAGE__", {}, null, null, 0] }] }, null, null, 1]),
      )}`,
    ],
  ])("hands everything else to Next.js, as sent: %s", async (_case, head) => {
    seen.length = 0;
    const answer = await rawRequest(head);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(seen).toEqual([head.slice(0, head.indexOf(" HTTP/"))]);
  });
});
