import "server-only";

import { subscribe } from "node:diagnostics_channel";
import type { Server } from "node:http";

/**
 * Limits on the dashboard's own HTTP server, tighter than Node's defaults (headers 60 s, a whole request
 * 300 s, no connection cap): a client that trickles its headers or body (slowloris) holds a connection for
 * seconds, not minutes, and the number of open connections is bounded (OWASP ASVS 5 V13.1.3; README,
 * "Behind a proxy"). A reverse proxy in front keeps its own, shorter limits: its idle timeout toward the
 * dashboard must stay below KEEP_ALIVE_TIMEOUT, which Next.js's standalone server reads itself.
 */
export const SERVER_LIMITS = {
  /** Time to receive a request's headers. */
  headersTimeoutMs: 10_000,
  /** Time to receive a whole request (the BFF's bodies are a few hundred bytes). */
  requestTimeoutMs: 30_000,
  /** Open connections at most; past this the server refuses new ones until some close. */
  maxConnections: 1_024,
} as const;

const configured = new WeakSet<Server>();

/**
 * The HTTP server belongs to Next.js, which offers no option for these limits: Node's
 * `http.server.request.start` diagnostics channel hands us the server (as for the clean shutdown), and its
 * documented properties are set once, on its first request. Nothing of Next.js is patched or wrapped.
 */
export function installConnectionLimits(): void {
  subscribe("http.server.request.start", (message) => {
    const { server } = message as { server: Server };
    if (configured.has(server)) return;
    configured.add(server);
    server.headersTimeout = SERVER_LIMITS.headersTimeoutMs;
    server.requestTimeout = SERVER_LIMITS.requestTimeoutMs;
    server.maxConnections = SERVER_LIMITS.maxConnections;
  });
}
