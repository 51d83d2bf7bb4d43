import { AsyncLocalStorage } from "node:async_hooks";
import { createServer, type Server } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { failureOf, SITE_ANSWER_BYTE_CAPS, siteFailureOf, SiteFetchError, type SiteAnswerKind } from "@/lib/site/site-call-policy";
import { SITE_CALL_TIMEOUT_MS, withSiteDeadline } from "@/lib/site/site-deadline";
import { siteFetch, type SiteFetchInit } from "@/lib/site/site-fetch";

import { captureLog } from "../../support/captured-log";

/** How the site applies each content coding; "deflate-raw" is a server's raw deflate stream sent as "deflate". */
const CODERS: Record<string, (content: Buffer) => Buffer> = {
  gzip: (content) => gzipSync(content),
  "x-gzip": (content) => gzipSync(content),
  deflate: (content) => deflateSync(content),
  "deflate-raw": (content) => deflateRawSync(content),
  br: (content) => brotliCompressSync(content),
};

/** A site that streams spaces without end (respecting backpressure) and counts what it managed to send. */
let server: Server;
let base: string;
const sent = { bytes: 0, closed: Promise.resolve() };

beforeAll(async () => {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  server = createServer((request, response) => {
    if (request.url === "/declared") {
      response.writeHead(200, { "content-type": "application/json", "content-length": String(50 * 1024 * 1024) });
      response.write(chunk);
      return;
    }
    if (request.url === "/echo") {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => (body += chunk));
      request.on("end", () => {
        response.writeHead(201, { "content-type": "application/json", "x-echo": "yes" });
        response.end(JSON.stringify({ method: request.method, type: request.headers["content-type"], body }));
      });
      return;
    }
    if (request.url?.startsWith("/coded?")) {
      // The answer in the codings named, applied left to right, with the Accept-Encoding it was asked with.
      const query = new URL(request.url, "http://site").searchParams;
      const codings = query.get("codings")!;
      const plain = Buffer.from(
        JSON.stringify({
          acceptEncoding: request.headers["accept-encoding"] ?? null,
          padding: " ".repeat(Number(query.get("padding") ?? 0)),
        }),
      );
      let content: Buffer = plain;
      for (const coding of codings.split(",").map((name) => name.trim())) content = CODERS[coding]?.(content) ?? content;
      if (query.has("truncate")) content = content.subarray(0, content.byteLength - 8);
      response.writeHead(200, {
        "content-type": "application/json",
        "content-encoding": codings.replace("deflate-raw", "deflate"),
        "content-length": String(content.byteLength),
      });
      response.end(content);
      return;
    }
    if (request.url === "/empty") {
      response.writeHead(204);
      response.end();
      return;
    }
    if (request.url === "/broken") {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write("{");
      setTimeout(() => response.destroy(), 20);
      return;
    }
    if (request.url === "/hang") {
      response.writeHead(200, { "content-type": "application/json" });
      response.write("{");
      return;
    }
    sent.bytes = 0;
    let resolveClosed: () => void = () => undefined;
    sent.closed = new Promise((resolve) => (resolveClosed = resolve));
    response.writeHead(200, { "content-type": "application/json" });
    const pump = () => {
      while (!response.destroyed && sent.bytes < 200 * 1024 * 1024) {
        sent.bytes += chunk.byteLength;
        if (!response.write(chunk)) return;
      }
    };
    response.on("drain", pump);
    response.on("close", resolveClosed);
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// OAuth, key set and GraphQL requests (redirect "manual", a body sent whole) go over node:http and are
// read whole; MCP requests go through fetch and are streamed. Both keep the same caps and failures.
const paths: [string, SiteAnswerKind, SiteFetchInit][] = [
  ["node:http, read whole", "graphql", { method: "POST", body: "{}", redirect: "manual" }],
  ["fetch, streamed", "mcp", { method: "POST", body: "{}" }],
];

/** The body's text, or what failed on the way (at once, or while the body was read). */
function readText(response: Promise<Response>): Promise<unknown> {
  return response
    .then(
      (answer) => answer.text(),
      (failure: unknown) => failure,
    )
    .then(
      (text) => text,
      (failure: unknown) => failure,
    );
}

describe("siteFetch", () => {
  it.each(paths)(
    "%s: stops reading an endless answer just past the cap of its kind and lets the site's stream go",
    async (_path, kind, init) => {
      const error: unknown = await readText(siteFetch(kind, `${base}/endless`, init));
      expect(siteFailureOf(error)).toMatchObject({ code: "too_large", kind });
      await sent.closed;
      // The site could push only what fits in the loopback socket buffers past our cap, never its 200 MiB.
      expect(sent.bytes).toBeLessThan(SITE_ANSWER_BYTE_CAPS[kind] + 24 * 1024 * 1024);
    },
  );

  it("node:http: an answer over the cap still tells its status to a caller that never reads the body", async () => {
    const response = await siteFetch("oauth", `${base}/endless`, {
      method: "POST",
      body: new URLSearchParams({ token: "t" }),
      redirect: "manual",
    });
    expect(response.status).toBe(200);
    expect(siteFailureOf(await readText(Promise.resolve(response)))?.code).toBe("too_large");
  });

  it("node:http: sends the method, headers and body, and answers with the site's status, headers and body", async () => {
    const response = await siteFetch("oauth", `${base}/echo`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ token: "t", hint: "é" }),
      redirect: "manual",
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-echo")).toBe("yes");
    expect(response.url).toBe(`${base}/echo`);
    expect(await response.json()).toEqual({ method: "POST", type: "application/x-www-form-urlencoded", body: "token=t&hint=%C3%A9" });
  });

  it("node:http: a 204 has no body", async () => {
    const response = await siteFetch("oauth", `${base}/empty`, { method: "POST", body: "", redirect: "manual" });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it.each(paths)("%s: refuses an answer whose declared length is over the cap before reading it", async (_path, kind, init) => {
    await expect(siteFetch(kind, `${base}/declared`, init)).rejects.toMatchObject({ code: "too_large", kind });
  });

  it.each(paths)("%s: says timeout when the caller's signal expires while the body is read", async (_path, kind, init) => {
    const error: unknown = await readText(siteFetch(kind, `${base}/hang`, { ...init, signal: AbortSignal.timeout(200) }));
    expect(siteFailureOf(error)?.code).toBe("timeout");
  });

  it.each(paths)("%s: says unreachable for a refused connection, and logs why", async (_path, kind, init) => {
    // A port nothing listens on (not port 1, which fetch refuses to dial at all).
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const log = captureLog();
    await expect(siteFetch(kind, `http://127.0.0.1:${port}/oauth/token?code=the-code&state=the-state`, init)).rejects.toMatchObject({
      code: "unreachable",
    });
    // The path names the endpoint; the query, which may carry a code or a state, is never logged.
    expect(log.events()).toContainEqual(
      expect.objectContaining({ event: "site_error", endpoint: "/oauth/token", reason: "unreachable", networkError: "ECONNREFUSED" }),
    );
    expect(log.text()).not.toMatch(/the-code|the-state/);
  });

  it("logs a network error's code only when it is a plain code, never text the network made up", () => {
    const log = captureLog();
    const url = new URL(`${base}/oauth/token`);
    for (const code of ["ECONNRESET", 'EVIL\n{"event":"forged"}', "a sentence, not a code"]) {
      failureOf(Object.assign(new Error("socket"), { code }), new AbortController().signal, "oauth", url, false);
    }
    expect(log.events().map((event) => event.networkError)).toEqual(["ECONNRESET", undefined, undefined]);
  });

  it("node:http: says the answer broke off when the site closes the connection mid-answer", async () => {
    const error: unknown = await readText(siteFetch("graphql", `${base}/broken`, { method: "POST", body: "{}", redirect: "manual" }));
    expect(siteFailureOf(error)?.code).toBe("unreachable");
  });
});

/**
 * Answers read whole come in the codings the dashboard asks for, as fetch asks (RFC 9110 section 12.5.3: with
 * no Accept-Encoding a site may send any), and are decoded to at most the cap of their kind.
 */
describe("node:http: compressed answers", () => {
  const coded = (query: string) => siteFetch("graphql", `${base}/coded?${query}`, { method: "POST", body: "{}", redirect: "manual" });

  it.each(["gzip", "x-gzip", "deflate", "br", "gzip, br", "identity, gzip"])(
    "asks for gzip, deflate and br, and reads an answer in %s",
    async (codings) => {
      const response = await coded(`codings=${codings}&padding=3`);
      expect(await response.json()).toEqual({ acceptEncoding: "gzip, deflate, br", padding: "   " });
      // The reader gets the content decoded: neither the coding nor the length on the wire is its.
      expect(response.headers.get("content-encoding")).toBeNull();
      expect(response.headers.get("content-length")).toBeNull();
    },
  );

  it("reads a raw deflate stream sent as deflate, as some servers send it", async () => {
    const response = await coded("codings=deflate-raw");
    expect(await response.json()).toMatchObject({ acceptEncoding: "gzip, deflate, br" });
  });

  it("keeps a caller's own Accept-Encoding", async () => {
    const response = await siteFetch("oauth", `${base}/coded?codings=identity`, {
      headers: { "accept-encoding": "identity" },
      redirect: "manual",
    });
    expect(await response.json()).toMatchObject({ acceptEncoding: "identity" });
  });

  it("leaves an answer in a coding it did not ask for as it came", async () => {
    const response = await coded("codings=zstd");
    expect(response.headers.get("content-encoding")).toBe("zstd");
    expect(await response.json()).toMatchObject({ acceptEncoding: "gzip, deflate, br" });
  });

  it.each(["gzip", "br", "gzip, br"])(
    "stops an answer in %s that opens to more than the cap, however small on the wire, and logs it",
    async (codings) => {
      const log = captureLog();
      const response = await coded(`codings=${codings}&padding=${SITE_ANSWER_BYTE_CAPS.graphql}`);
      // The status still reaches a caller that never reads the body (a revocation).
      expect(response.status).toBe(200);
      expect(siteFailureOf(await readText(Promise.resolve(response)))?.code).toBe("too_large");
      expect(log.events()).toContainEqual(
        expect.objectContaining({
          event: "site_error",
          reason: "too_large",
          capBytes: SITE_ANSWER_BYTE_CAPS.graphql,
          contentCoding: codings,
        }),
      );
    },
  );

  it.each(paths)("%s: stops a gzip answer that opens to more than the cap", async (_path, kind, init) => {
    const error: unknown = await readText(siteFetch(kind, `${base}/coded?codings=gzip&padding=${SITE_ANSWER_BYTE_CAPS[kind]}`, init));
    expect(siteFailureOf(error)).toMatchObject({ code: "too_large", kind });
  });

  it("says the answer broke off when its compressed content is cut short", async () => {
    const log = captureLog();
    const error: unknown = await readText(coded("codings=gzip&truncate"));
    expect(siteFailureOf(error)?.code).toBe("unreachable");
    expect(log.events()).toContainEqual(
      expect.objectContaining({ event: "site_error", reason: "unreachable", networkError: "Z_BUF_ERROR" }),
    );
  });
});

describe("withSiteDeadline", () => {
  it("aborts every request inside once the page view's deadline passes", async () => {
    const started = performance.now();
    const error: unknown = await withSiteDeadline(300, async () => {
      const response = await siteFetch("oauth", `${base}/hang`, { signal: AbortSignal.timeout(60_000) });
      return response.text();
    }).catch((failure: unknown) => failure);
    expect(siteFailureOf(error)?.code).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("answers at the deadline even when the work ignores the abort", async () => {
    const never = new Promise<string>(() => undefined);
    await expect(withSiteDeadline(100, () => never)).rejects.toBeInstanceOf(SiteFetchError);
  });

  it("keeps the outer, earlier deadline for nested work: one deadline per page view, not per attempt", async () => {
    const started = performance.now();
    const error: unknown = await withSiteDeadline(300, () =>
      withSiteDeadline(60_000, async () => (await siteFetch("oauth", `${base}/hang`)).text()),
    ).catch((failure: unknown) => failure);
    expect(siteFailureOf(error)?.code).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2_000);
  });
  it("gives a call no timer of its own when the page view's deadline passes sooner, and one otherwise", async () => {
    const [, kind, init] = paths[0]!;
    const timers = vi.spyOn(globalThis, "setTimeout");
    try {
      const timersFor = async (work: () => Promise<unknown>) => {
        timers.mockClear();
        expect(await work()).toContain("POST");
        return timers.mock.calls.length;
      };
      const call = () => readText(siteFetch(kind, `${base}/echo`, init));
      // The deadline's own timer only: a data route's calls are inside a deadline of the call timeout's length.
      expect(await timersFor(() => withSiteDeadline(SITE_CALL_TIMEOUT_MS, call))).toBe(1);
      // A longer deadline, or none: the call's own timeout bounds it too.
      expect(await timersFor(() => withSiteDeadline(SITE_CALL_TIMEOUT_MS * 4, call))).toBe(2);
      expect(await timersFor(call)).toBe(1);
    } finally {
      timers.mockRestore();
    }
  });
});

describe("a finished call", () => {
  setFlagsFromString("--expose-gc");
  const collectGarbage = runInNewContext("gc") as () => void;

  // The node:http path, which carries the Account API and OAuth calls. (fetch's own undici timers are not ours.)
  it.each(paths.slice(0, 1))(
    "%s: keeps nothing of the request it ran in alive (no deadline or timeout left running holds its context)",
    async (_path, kind, init) => {
      const requestContext = new AsyncLocalStorage<object>();
      const call = () => readText(siteFetch(kind, `${base}/echo`, init));
      await call();
      const memberRequest: WeakRef<object>[] = [];
      await (async () => {
        const state = { answer: new Uint8Array(64 * 1024) };
        memberRequest.push(new WeakRef(state));
        await requestContext.run(state, () => withSiteDeadline(60_000, call));
      })();
      // A kept-alive connection holds the context of the last request it carried, until it carries the next:
      // one per pooled connection, not one per call. The next request moves it on.
      await call();
      for (let round = 0; round < 3 && memberRequest[0]!.deref() !== undefined; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        collectGarbage();
      }
      expect(memberRequest[0]!.deref()).toBeUndefined();
    },
  );
});
