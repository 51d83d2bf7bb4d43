import { NextResponse, type NextRequest } from "next/server";

import { callWithMemberSession } from "@/lib/auth/member-session";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { PAGE_VIEW_DEADLINE_MS, withSiteDeadline } from "@/lib/site/site-fetch";
import { connectionsLoader } from "@/lib/site/mcp-client";
import { loggedRoute } from "@/lib/http/request-log";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

export const GET = loggedRoute(API_ROUTES.connections, handleGet);

/**
 * `GET /api/account/connections`: what an AI assistant connected to the site's MCP server can do for the
 * signed-in member (the server's name, its tools, the URL to paste). Never a token.
 */
async function handleGet(request: NextRequest) {
  const buffer = new CookieBuffer();
  try {
    const data = await withSiteDeadline(PAGE_VIEW_DEADLINE_MS, () =>
      callWithMemberSession(requestResponseJar(request.cookies, buffer), connectionsLoader()),
    );
    return buffer.applyTo(NextResponse.json(data, { headers: { "cache-control": "no-store" } }));
  } catch (error) {
    return buffer.applyTo(apiErrorResponse(error));
  }
}
