/**
 * Loaded before Next.js's server (`node --import ./scripts/method-guard.ts server.js`, and so before
 * `next dev` by `npm run dev`, so that development answers every URL as production does): every
 * HTTP server the process creates first asks lib/http/method-policy.ts whether the path answers the
 * request's method, and answers 405 with `Allow` (or 404) itself when it does not. Next.js turns each
 * request into a Fetch `Request`, which cannot carry TRACE, TRACK or CONNECT, so without this those
 * answered 500, and pages rendered for DELETE or PROPFIND (RFC 9110 sections 9.1 and 15.5.6; OWASP ASVS 5
 * V13.4). For the same reason it answers 400 to an RSC request whose router state Next.js cannot read
 * (below). Everything it does not refuse goes to Next.js's own listener, unchanged. Plain Node.js with
 * erasable TypeScript only: it runs in the deployable bundle as it is.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import type { Duplex } from "node:stream";

import { boundedMemory } from "../lib/format/bounded-memory.ts";
import { isRepresentable, readRouteTable, refuseMethod, routeMethodsOf, type RouteMethods } from "../lib/http/method-policy.ts";

/** The bundle's (or the project's) root: this file sits in its scripts/ folder. */
const root = path.resolve(import.meta.dirname, "..");

/**
 * Under `next dev` route files come and go while the server runs: the table is derived from them again
 * for each API request, and Next.js's own development endpoints (its overlay's, source maps', HMR's,
 * under /_next/ and /__nextjs_) are left to it. Everywhere else the table is read once.
 */
const development = process.env.NODE_ENV === "development";
const builtTable: readonly RouteMethods[] | null = development ? null : readRouteTable(root);

function routeTableFor(pathname: string): readonly RouteMethods[] {
  if (builtTable) return builtTable;
  return pathname === "/api" || pathname.startsWith("/api/") ? routeMethodsOf(root) : [];
}

function isDevelopmentEndpoint(pathname: string): boolean {
  return development && (pathname.startsWith("/_next/") || pathname.startsWith("/__nextjs_"));
}

/** The guard's answer to `method` on `pathname`: null to hand the request to Next.js. */
function refusalOf(method: string, pathname: string): NonNullable<ReturnType<typeof refuseMethod>> | null {
  if (isDevelopmentEndpoint(pathname) && isRepresentable(method)) return null;
  return refuseMethod(method, pathname, routeTableFor(pathname));
}

/**
 * Next.js's own reading of the `Next-Router-State-Tree` header of an RSC request (a tab click). Next.js
 * hides the header from the proxy, and when this throws it answers 500 and logs the error: a request no
 * browser sends would otherwise be a server fault (OWASP ASVS 5 V16.5.3). Its own function, not a copy
 * of its schema, so the guard refuses exactly what Next.js cannot read.
 */
const { parseAndValidateFlightRouterState } = createRequire(import.meta.url)(
  "next/dist/server/app-render/parse-and-validate-flight-router-state.js",
) as { parseAndValidateFlightRouterState: (header: string | string[] | undefined) => unknown };

function isUnreadableRouterState(header: string | string[]): boolean {
  try {
    parseAndValidateFlightRouterState(header);
    return false;
  } catch {
    return true;
  }
}

/**
 * Each router state already checked, and whether Next.js could read it. A browser sends the same few again
 * and again (one per page a tab is clicked from), and checking one again cost about 50 µs of a tab click's
 * CPU under load (docs/performance.md). Bounded whatever values arrive: 500 of them, each up to 4 KB
 * (a longer one is checked every time).
 */
const checkedRouterStates = boundedMemory<boolean>(500, 4096);

/** Whether the request carries a router state Next.js could not read. */
function hasUnreadableRouterState(headers: IncomingHttpHeaders): boolean {
  const header = headers["next-router-state-tree"];
  if (header === undefined) return false;
  return typeof header === "string" ? checkedRouterStates.get(header, isUnreadableRouterState) : isUnreadableRouterState(header);
}

/** How many router states are remembered as checked (for tests). */
export function checkedRouterStateCount(): number {
  return checkedRouterStates.size;
}

function pathnameOf(url: string | undefined): string {
  try {
    return new URL(url ?? "/", "http://dashboard.invalid").pathname;
  } catch {
    return "/";
  }
}

type Refusal = NonNullable<ReturnType<typeof refuseMethod>> | { status: 400 };

const REFUSAL_TEXT = { 400: "Bad request.\n", 404: "Not found.\n", 405: "Method not allowed.\n" } as const;

function refuse(response: ServerResponse, refusal: Refusal): void {
  const headers: Record<string, string> = {
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
  if (refusal.status === 405) headers.allow = refusal.allow;
  response.writeHead(refusal.status, headers).end(REFUSAL_TEXT[refusal.status]);
}

/** The request listener, behind the method check. */
export function guardRequests(listener: RequestListener): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    const refusal: Refusal | null =
      refusalOf(request.method ?? "", pathnameOf(request.url)) ?? (hasUnreadableRouterState(request.headers) ? { status: 400 } : null);
    if (refusal) refuse(response, refusal);
    else listener(request, response);
  };
}

/** CONNECT never reaches a request listener: Node.js hands it over as a tunnel, which is never opened. */
export function refuseTunnel(request: IncomingMessage, socket: Duplex): void {
  const refusal = refusalOf("CONNECT", pathnameOf(request.url)) ?? { status: 405, allow: "GET, HEAD" };
  const allow = refusal.status === 405 ? `Allow: ${refusal.allow}\r\n` : "";
  const status = refusal.status === 405 ? "405 Method Not Allowed" : "404 Not Found";
  socket.end(`HTTP/1.1 ${status}\r\n${allow}Content-Length: 0\r\nConnection: close\r\n\r\n`);
}

const createServer = http.createServer.bind(http);
type ServerArguments = [http.ServerOptions, RequestListener?] | [RequestListener?];

http.createServer = (...args: ServerArguments) => {
  const [options, listener] = typeof args[0] === "function" || args[0] === undefined ? [{}, args[0]] : [args[0], args[1]];
  const server = createServer(options, listener ? guardRequests(listener) : undefined);
  server.on("connect", refuseTunnel);
  return server;
};
