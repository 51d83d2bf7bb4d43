import "server-only";

import http from "node:http";
import type { AddressInfo } from "node:net";

import { logEvent } from "@/lib/log/logger";

import { metricsExposition } from "./exposition";

/**
 * The operators' own port (METRICS_PORT at METRICS_HOST, default 127.0.0.1): GET /metrics and nothing else.
 * A separate small server, started by instrumentation.ts, so the members' origin never serves the metrics
 * without METRICS_TOKEN. It answers no cookies and keeps no state.
 */
export function startMetricsServer(options: { port: number; host: string }): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found: the metrics are at /metrics.\n");
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }).end("Method not allowed.\n");
      return;
    }
    metricsExposition().then(
      ({ body, contentType }) => {
        response
          .writeHead(200, { "content-type": contentType, "cache-control": "no-store" })
          .end(request.method === "HEAD" ? undefined : body);
      },
      () => {
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("The metrics could not be collected.\n");
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      // Closed with the process; it never holds a shutdown back.
      server.unref();
      const address = server.address() as AddressInfo;
      logEvent("metrics_listening", { host: address.address, port: address.port });
      resolve(server);
    });
  });
}
