/**
 * Runs once when a dashboard server starts, before it serves anything: invalid configuration stops
 * start-up with one message naming every bad variable (docs/architecture.md section 3), even when the server is
 * started without the launcher (`node .next/standalone/server.js`); then the clean shutdown is armed and
 * the shared state's connection opened.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getConfig } = await import("@/lib/config");
  const { ConfigError } = await import("@/lib/config/env-schema");
  try {
    getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { installGracefulShutdown } = await import("@/lib/server/graceful-shutdown");
  installGracefulShutdown();
  // Redis (or Sentinel) is connected before the first request needs it, rather than by it.
  const { getSharedState } = await import("@/lib/session/shared-state");
  getSharedState();
}
