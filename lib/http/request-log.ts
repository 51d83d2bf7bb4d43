import "server-only";

import { logRequestLine, millisecondsSince, runWithRequestId } from "@/lib/log/logger";

import { apiErrorResponse } from "./error-responses";
import { REQUEST_ID_HEADER, requestIdOf } from "./request-id";

type RouteHandler<Req extends Request, Rest extends unknown[]> = (request: Req, ...rest: Rest) => Response | Promise<Response>;

/**
 * Wraps every app/api route handler (the API routes skip proxy.ts): one `request` log line per BFF request
 * with method, route, status, duration and request id, the id on every event logged while it runs and in
 * the `X-Request-Id` response header. `route` is the route's pattern, never the URL (which may carry a
 * cursor or an authorization code). Probes (`/api/health`, `/api/ready`) log at `debug`, so a load
 * balancer's polling does not drown the member's requests at the default level.
 */
export function loggedRoute<Req extends Request, Rest extends unknown[]>(
  route: string,
  handler: RouteHandler<Req, Rest>,
  options: { level?: "debug" | "info" } = {},
): (request: Req, ...rest: Rest) => Promise<Response> {
  return async (request, ...rest) => {
    const started = performance.now();
    const requestId = requestIdOf(request.headers);
    let response: Response;
    try {
      response = await runWithRequestId(requestId, () => handler(request, ...rest));
    } catch (error) {
      // A handler maps its own errors; this is the net for one that did not: never a stack trace.
      response = runWithRequestId(requestId, () => apiErrorResponse(error));
    }
    response.headers.set(REQUEST_ID_HEADER, requestId);
    runWithRequestId(requestId, () =>
      logRequestLine({ method: request.method, route, status: response.status, durationMs: millisecondsSince(started) }, options.level),
    );
    return response;
  };
}
