/**
 * Runs once when a dashboard server starts, before it serves anything (lib/server/start-up.ts). The
 * start-up is imported only in the Node.js runtime, as Next.js's instrumentation guide does, so that no
 * Edge bundle is built from it.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startDashboardServer } = await import("@/lib/server/start-up");
    await startDashboardServer();
  }
}
