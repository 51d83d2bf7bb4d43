import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { SITE_ANSWER_BYTE_CAPS, siteFailureOf, siteFetch, SiteFetchError, withSiteDeadline } from "@/lib/site/site-fetch";

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

describe("siteFetch", () => {
  it("stops reading an endless answer just past the cap of its kind and lets the site's stream go", async () => {
    const response = await siteFetch("graphql", `${base}/endless`);
    const error: unknown = await response.text().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(siteFailureOf(error)).toMatchObject({ reason: "too_large", kind: "graphql" });
    await sent.closed;
    // The site could push only what fits in the loopback socket buffers past our 2 MiB, never its 200 MiB.
    expect(sent.bytes).toBeLessThan(SITE_ANSWER_BYTE_CAPS.graphql + 24 * 1024 * 1024);
  });

  it("refuses an answer whose declared length is over the cap before reading it", async () => {
    await expect(siteFetch("oauth", `${base}/declared`)).rejects.toMatchObject({ reason: "too_large", kind: "oauth" });
  });

  it("says timeout when the caller's signal expires while the body is read", async () => {
    const response = await siteFetch("oauth", `${base}/hang`, { signal: AbortSignal.timeout(200) });
    const error: unknown = await response.text().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(siteFailureOf(error)?.reason).toBe("timeout");
  });

  it("says unreachable for a refused connection", async () => {
    await expect(siteFetch("oauth", "http://127.0.0.1:1/")).rejects.toMatchObject({ reason: "unreachable" });
  });
});

describe("withSiteDeadline", () => {
  it("aborts every request inside once the page view's deadline passes", async () => {
    const started = performance.now();
    const error: unknown = await withSiteDeadline(300, async () => {
      const response = await siteFetch("oauth", `${base}/hang`, { signal: AbortSignal.timeout(60_000) });
      return response.text();
    }).catch((failure: unknown) => failure);
    expect(siteFailureOf(error)?.reason).toBe("timeout");
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
    expect(siteFailureOf(error)?.reason).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
