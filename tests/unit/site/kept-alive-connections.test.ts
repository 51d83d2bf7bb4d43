/**
 * A site closes an idle kept-alive connection after its keep-alive timeout; a request written on that
 * connection as it closes is reset before any answer (Node's http docs, request.reusedSocket). siteFetch
 * sends such a request once more, on a new connection, when sending it twice changes nothing at the site
 * (a GET, an Account API query), so a member's page does not fail on the race. A reset on a new
 * connection is the site's own failure, and a request the site began to answer, or a POST to its token
 * endpoint, is never sent again: a reset does not prove the site did not read it.
 */
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";

import { siteFailureOf } from "@/lib/site/site-call-policy";
import { siteFetch } from "@/lib/site/site-fetch";

import { captureLog } from "../../support/captured-log";

const OK = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: keep-alive\r\n\r\n{"ok":true}';
/** The head of the same answer and the start of its body: the site read the request and began to answer. */
const BEGUN = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: keep-alive\r\n\r\n{"o';
const QUERY = {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: '{"query":"query DashboardCourses { viewer { id } }"}',
};

/**
 * A site over raw TCP that answers or resets each request by its place: `plan(connection, request)`, both
 * counted from 1, says what to do with the request-th request on the connection-th connection.
 */
async function startSite(plan: (connection: number, request: number) => "answer" | "reset" | "begin then reset") {
  let connections = 0;
  const requests: [number, number][] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    const connection = (connections += 1);
    let onThisConnection = 0;
    let pending = "";
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    socket.on("data", (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      while (pending.includes("\r\n\r\n")) {
        pending = pending.slice(pending.indexOf("\r\n\r\n") + 4);
        onThisConnection += 1;
        requests.push([connection, onThisConnection]);
        const step = plan(connection, onThisConnection);
        if (step === "answer") socket.write(OK);
        else if (step === "reset") socket.resetAndDestroy();
        else socket.write(BEGUN, () => setTimeout(() => socket.resetAndDestroy(), 20));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/account/graphql`;
  return {
    url,
    requests,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let site: Awaited<ReturnType<typeof startSite>> | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe("a kept-alive connection the site closed", () => {
  it("an Account API query reset on it before any answer is sent once more, on a new connection, and answered", async () => {
    site = await startSite((connection, request) => (connection === 1 && request === 2 ? "reset" : "answer"));
    expect((await siteFetch("graphql", site.url, QUERY)).status).toBe(200);
    const again = await siteFetch("graphql", site.url, QUERY);
    expect(await again.json()).toEqual({ ok: true });
    expect(site.requests).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
    ]);
  });

  it("is sent once more at most: a second reset is the site's failure", async () => {
    site = await startSite((connection, request) => (connection === 1 && request === 1 ? "answer" : "reset"));
    await siteFetch("graphql", site.url);
    captureLog();
    const failure = await siteFetch("graphql", site.url).catch((error: unknown) => error);
    expect(siteFailureOf(failure)?.code).toBe("unreachable");
    expect(site.requests).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
    ]);
  });

  // An Account API query too, which a reset on a kept-alive connection would send once more.
  it.each([
    ["a token request", "oauth", { method: "POST", body: "grant_type=refresh_token" }],
    ["an Account API query", "graphql", QUERY],
  ] as const)("%s reset on a new connection is not sent again: the site may have read it", async (_name, kind, init) => {
    site = await startSite(() => "reset");
    captureLog();
    const failure = await siteFetch(kind, site.url, init).catch((error: unknown) => error);
    expect(siteFailureOf(failure)?.code).toBe("unreachable");
    expect(site.requests).toEqual([[1, 1]]);
  });

  it("a POST to the token endpoint reset on it is not sent again: a refresh token or code sent twice is a replay", async () => {
    site = await startSite((connection, request) => (connection === 1 && request === 1 ? "answer" : "reset"));
    await siteFetch("oauth", site.url);
    captureLog();
    const failure = await siteFetch("oauth", site.url, { method: "POST", body: "grant_type=refresh_token&refresh_token=srt_x" }).catch(
      (error: unknown) => error,
    );
    expect(siteFailureOf(failure)?.code).toBe("unreachable");
    expect(site.requests).toEqual([
      [1, 1],
      [1, 2],
    ]);
  });

  it("a request the site began to answer before the reset is not sent again: it was read", async () => {
    site = await startSite((connection, request) => (connection === 1 && request === 2 ? "begin then reset" : "answer"));
    await siteFetch("graphql", site.url, QUERY);
    captureLog();
    const failure = await siteFetch("graphql", site.url, QUERY).catch((error: unknown) => error);
    expect(siteFailureOf(failure)?.code).toBe("unreachable");
    expect(site.requests).toEqual([
      [1, 1],
      [1, 2],
    ]);
  });
});
