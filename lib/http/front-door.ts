/**
 * The front door: routes served ahead of Next.js's router, in the same process and by the same handler.
 *
 * A Next.js route answers 3 to 4 ms after a bare node:http server would (one request at a time), whatever the
 * route does (docs/performance.md). For the account data routes, the hottest path of the dashboard, that
 * is more than everything else the dashboard adds to the site's own answer time. So the route module
 * that Next.js loads opens its paths here (lib/http/front-door-route.ts), and the server's request
 * listener, which the method guard wraps (scripts/method-guard.ts), hands a GET of exactly such a path
 * straight to that module's handler. Everything else, and every path before its route module has been
 * loaded once, goes through Next.js as usual.
 *
 * The registry lives on globalThis: the method guard is loaded by Node.js before Next.js starts, the
 * route module inside Next.js's bundle, and each has its own copy of this module. Plain TypeScript that
 * Node.js runs as it is, with nothing imported at run time.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export type FrontDoorListener = (request: IncomingMessage, response: ServerResponse) => unknown;

const globalKey = Symbol.for("companion-dashboard.front-door");
type GlobalWithFrontDoor = typeof globalThis & { [globalKey]?: Map<string, FrontDoorListener> };

function openPaths(): Map<string, FrontDoorListener> {
  const scope = globalThis as GlobalWithFrontDoor;
  return (scope[globalKey] ??= new Map<string, FrontDoorListener>());
}

/** Serves GET `pathname` (exactly this path, any query) with `listener` from now on. */
export function openFrontDoor(pathname: string, listener: FrontDoorListener): void {
  openPaths().set(pathname, listener);
}

/** A Host header of a name or an address, with an optional port: anything else is left to Next.js. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The request's path exactly as sent, without the query. */
function rawPathOf(url: string): string {
  const queryStart = url.indexOf("?");
  return queryStart === -1 ? url : url.slice(0, queryStart);
}

/**
 * The listener that serves this request at the front door, if any: a GET of exactly an open path (no
 * other spelling of it: Next.js handles those as it always did), with a plain Host header.
 */
export function frontDoorListener(request: IncomingMessage): FrontDoorListener | undefined {
  if (request.method !== "GET" || request.url === undefined) return undefined;
  const listener = openPaths().get(rawPathOf(request.url));
  return listener && PLAIN_HOST.test(request.headers.host ?? "") ? listener : undefined;
}
