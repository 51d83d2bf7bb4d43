import "server-only";

import { NextResponse, type NextRequest } from "next/server";

import { callWithMemberSession } from "@/lib/auth/member-session";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import type { SessionData } from "@/lib/session/session";
import { PAGE_VIEW_DEADLINE_MS, withSiteDeadline } from "@/lib/site/site-deadline";

import { apiErrorResponse } from "./error-responses";
import { loggedRoute } from "./request-log";

/** What a member route reads at the site once it has the member's access token (refreshed and retried once when refused). */
export type MemberCall<T> = (accessToken: string, session: SessionData) => Promise<T>;

/**
 * A member's JSON route: one `request` log line (loggedRoute), the request read by `prepare` (which may
 * throw a RequestError: an unknown page, a bad cursor), then one deadline for everything it asks the
 * site, the member's session with its refresh and the cookie writes that come of it, and the answer:
 * the data as JSON, never stored, or the one error mapping (lib/http/error-responses.ts).
 */
export function memberJsonRoute<Context = void, T = unknown>(
  route: string,
  prepare: (request: NextRequest, context: Context) => MemberCall<T> | Promise<MemberCall<T>>,
): (request: NextRequest, context: Context) => Promise<Response> {
  return loggedRoute(route, async (request: NextRequest, context: Context) => {
    const buffer = new CookieBuffer();
    try {
      const call = await prepare(request, context);
      const jar = requestResponseJar(request.cookies, buffer);
      const data = await withSiteDeadline(PAGE_VIEW_DEADLINE_MS, () => callWithMemberSession(jar, call));
      return buffer.applyTo(NextResponse.json(data, { headers: { "cache-control": "no-store" } }));
    } catch (error) {
      return buffer.applyTo(apiErrorResponse(error));
    }
  });
}
