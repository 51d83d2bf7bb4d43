import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { describe, expect, it } from "vitest";

import { installConnectionLimits, SERVER_LIMITS } from "@/lib/server/connection-limits";

describe("the server's connection limits (finding 7)", () => {
  it("sets the headers and request timeouts and a connection cap on the server that serves the dashboard", async () => {
    installConnectionLimits();
    const server = createServer((_request, response) => response.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      // Node's defaults before the first request.
      expect(server.headersTimeout).toBe(60_000);
      const { port } = server.address() as AddressInfo;
      await (await fetch(`http://127.0.0.1:${port}/`)).text();
      expect(server.headersTimeout).toBe(SERVER_LIMITS.headersTimeoutMs);
      expect(server.requestTimeout).toBe(SERVER_LIMITS.requestTimeoutMs);
      expect(server.maxConnections).toBe(SERVER_LIMITS.maxConnections);
      expect(SERVER_LIMITS.headersTimeoutMs).toBeLessThan(60_000);
      expect(SERVER_LIMITS.requestTimeoutMs).toBeLessThan(300_000);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
