import "server-only";

import { subscribe } from "node:diagnostics_channel";
import type { Server, ServerResponse } from "node:http";

import { logEvent } from "@/lib/log/logger";
import { getSharedState } from "@/lib/session/shared-state";

import { processWide } from "./process-wide";
import { MANUAL_SIGNAL_HANDLING } from "./signal-handling";

/** Requests in flight get this long to finish after SIGTERM; then the process exits regardless. */
export const SHUTDOWN_GRACE_MS = 10_000;

interface ShutdownState {
  servers: Set<Server>;
  inFlight: Set<ServerResponse>;
  shuttingDown: boolean;
}

/** Installed once for the process, whichever bundle asks first. */
const installed = processWide("graceful-shutdown", () => ({ state: undefined as ShutdownState | undefined }));

/**
 * Clean shutdown on SIGTERM (and SIGINT): stop accepting connections, let the requests in flight finish
 * (at most SHUTDOWN_GRACE_MS), close the shared state (its Redis client, if any), exit 0. The HTTP server
 * belongs to Next.js; Node's `http.server.request.start` diagnostics channel hands us the server and
 * every request, which is how we know both without reaching into Next.js.
 */
export function installGracefulShutdown(): void {
  if (installed.state) return;
  const state: ShutdownState = { servers: new Set(), inFlight: new Set(), shuttingDown: false };
  installed.state = state;

  subscribe("http.server.request.start", (message) => {
    const { server, response } = message as { server: Server; response: ServerResponse };
    state.servers.add(server);
    state.inFlight.add(response);
    response.once("close", () => state.inFlight.delete(response));
    // A keep-alive connection is not reused once shutdown began: the client opens its next one elsewhere.
    if (state.shuttingDown) response.setHeader("connection", "close");
  });

  if (!process.env[MANUAL_SIGNAL_HANDLING]) return;
  // `on`, not `once`: a second signal (a process group's, or an impatient Ctrl-C) must not kill the drain.
  const onSignal = (signal: NodeJS.Signals) => void shutDown(state, signal);
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}

async function shutDown(state: ShutdownState, signal: NodeJS.Signals): Promise<void> {
  if (state.shuttingDown) return;
  state.shuttingDown = true;
  const started = Date.now();
  logEvent("shutdown_started", { signal, requestsInFlight: state.inFlight.size, graceMs: SHUTDOWN_GRACE_MS });
  // Stops accepting connections and closes the idle keep-alive ones; busy ones close after their response.
  for (const server of state.servers) server.close();
  const drained = await waitUntil(() => state.inFlight.size === 0, SHUTDOWN_GRACE_MS);
  for (const server of state.servers) server.closeAllConnections();
  try {
    await getSharedState().close();
  } catch (error) {
    logEvent("shared_state_error", { during: "shutdown", cause: error instanceof Error ? error.name : "unknown" }, "warn");
  }
  logEvent("shutdown_finished", { signal, drained, requestsCutOff: state.inFlight.size, durationMs: Date.now() - started });
  process.exit(0);
}

function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const deadline = Date.now() + timeoutMs;
    const check = () => {
      if (condition()) resolve(true);
      else if (Date.now() >= deadline) resolve(false);
      else setTimeout(check, 25);
    };
    check();
  });
}
