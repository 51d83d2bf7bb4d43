import "server-only";

import { getConfig } from "@/lib/config";
import { ConfigError } from "@/lib/config/env-schema";
import { startMetricsServer } from "@/lib/metrics/metrics-server";
import { getSharedState } from "@/lib/session/shared-state";

import { installConnectionLimits } from "./connection-limits";
import { installGracefulShutdown } from "./graceful-shutdown";

/**
 * A dashboard server's start-up, before it serves anything: invalid configuration stops it with one
 * message naming every bad variable (docs/architecture.md section 3), even when the server is started
 * without the launcher (`node .next/standalone/server.js`); then the clean shutdown is armed, the server's
 * connection limits set (./connection-limits.ts), the shared state's connection opened, and the operators'
 * metrics port opens when METRICS_PORT is set (lib/metrics/metrics-server.ts). Node.js only: loaded by
 * instrumentation.ts in the Node.js runtime, so the Edge bundle never holds `process.exit`.
 */
export async function startDashboardServer(): Promise<void> {
  let config;
  try {
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  installGracefulShutdown();
  installConnectionLimits();
  // Redis (or Sentinel) is connected before the first request needs it, rather than by it.
  getSharedState();
  const { port, host } = config.metrics;
  if (port !== undefined) {
    await startMetricsServer({ port, host }).catch((error: unknown) => {
      console.error(`METRICS_PORT ${port} on ${host} could not be opened: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
  }
}
