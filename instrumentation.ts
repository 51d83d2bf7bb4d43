/**
 * Runs once when a dashboard server starts, before it serves anything: invalid configuration stops
 * start-up with one message naming every bad variable (docs/architecture.md section 3), even when the server is
 * started without the launcher (`node .next/standalone/server.js`); then the clean shutdown is armed, the server's
 * connection limits set (lib/server/connection-limits.ts), the shared state's connection opened, and the operators'
 * metrics port opens when METRICS_PORT is set (lib/metrics/metrics-server.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getConfig } = await import("@/lib/config");
  const { ConfigError } = await import("@/lib/config/env-schema");
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
  const { installGracefulShutdown } = await import("@/lib/server/graceful-shutdown");
  installGracefulShutdown();
  const { installConnectionLimits } = await import("@/lib/server/connection-limits");
  installConnectionLimits();
  // Redis (or Sentinel) is connected before the first request needs it, rather than by it.
  const { getSharedState } = await import("@/lib/session/shared-state");
  getSharedState();
  const { port, host } = config.metrics;
  if (port !== undefined) {
    const { startMetricsServer } = await import("@/lib/metrics/metrics-server");
    await startMetricsServer({ port, host }).catch((error: unknown) => {
      console.error(`METRICS_PORT ${port} on ${host} could not be opened: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
  }
}
