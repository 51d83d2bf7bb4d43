/**
 * An MCP server may answer a POST with an event stream (Streamable HTTP). The SDK reads such a stream
 * apart from the request it answers and only reports what goes wrong in it, so a stream that is not
 * JSON-RPC, or runs past the dashboard's cap, must end the listing at once with what went wrong,
 * rather than leave it waiting for its timeout and call the site unreachable.
 */
import { describe, expect, it } from "vitest";

import { inspectMcpServer, resetPublicToolsCacheForTests } from "@/lib/site/mcp-client";
import { SITE_ANSWER_BYTE_CAPS } from "@/lib/site/site-call-policy";

import { captureLog } from "../../support/captured-log";
import { setUpDashboardOnFakeSite } from "../../support/dashboard-on-fake-site";

const site = setUpDashboardOnFakeSite();

function eventStream(data: string) {
  return () => ({ text: `event: message\ndata: ${data}\n\n`, headers: { "content-type": "text/event-stream" } });
}

describe("an MCP answer sent as an event stream", () => {
  it("that is not JSON-RPC: 'incompatible'", async () => {
    resetPublicToolsCacheForTests();
    site.handlers.set("POST /mcp", eventStream("{not json"));
    await expect(inspectMcpServer(null)).resolves.toEqual({ available: false, reason: "incompatible" });
  });

  it("larger than the dashboard reads: 'too_large'", async () => {
    resetPublicToolsCacheForTests();
    captureLog();
    site.handlers.set("POST /mcp", eventStream("x".repeat(SITE_ANSWER_BYTE_CAPS.mcp + 1024)));
    await expect(inspectMcpServer(null)).resolves.toEqual({ available: false, reason: "too_large" });
  });
});
