import "server-only";

import { getRequestListener } from "@hono/node-server";

import { API_SECURITY_HEADERS } from "./api-security-headers";
import { apiErrorResponse } from "./error-responses";
import { openFrontDoor } from "./front-door";

/**
 * Opens `pathname` at the front door (lib/http/front-door.ts) for a route's own GET handler: from the
 * moment its route module is loaded, a GET of that exact path is answered by the same handler without
 * Next.js's router in between. @hono/node-server turns the Node.js request into a Fetch `Request` (on
 * the URL Next.js would give it: the Host header and the path) and writes the `Response` back, so the
 * handler must read a plain `Request`, not a NextRequest. What Next.js itself adds to an API route's
 * answer, the security headers of next.config.mjs, is added here too.
 */
export function serveAtFrontDoor(pathname: string, handler: (request: Request) => Promise<Response>): void {
  const listener = getRequestListener(async (request) => withApiSecurityHeaders(await handler(request)), {
    // Next.js's own Request and Response must stay the global ones.
    overrideGlobalObjects: false,
    // A request it cannot read (frontDoorListener takes only well-formed ones): one JSON error, never a stack trace.
    errorHandler: (error) => withApiSecurityHeaders(apiErrorResponse(error)),
  });
  openFrontDoor(pathname, listener);
}

function withApiSecurityHeaders(response: Response): Response {
  for (const { key, value } of API_SECURITY_HEADERS) response.headers.set(key, value);
  return response;
}
