import { NextResponse, type NextRequest } from "next/server";

import { callWithMemberSession } from "@/lib/auth/member-session";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { PAGE_VIEW_DEADLINE_MS, withSiteDeadline } from "@/lib/site/site-fetch";
import { isAccountPageKey, loadAccountPage } from "@/lib/site/account-pages";
import { loggedRoute } from "@/lib/http/request-log";

export const dynamic = "force-dynamic";

export const GET = loggedRoute("/api/account/[resource]", handleGet);

const MAX_CURSOR_LENGTH = 512;

/** The data route of one page: `GET /api/account/{overview|courses|orders|events}?after=<cursor>`. */
async function handleGet(request: NextRequest, context: { params: Promise<{ resource: string }> }) {
  const { resource } = await context.params;
  if (!isAccountPageKey(resource)) {
    return NextResponse.json(
      { error: { code: "not_found", message: "There is no such account page." } },
      { status: 404, headers: { "cache-control": "no-store" } },
    );
  }
  const after = request.nextUrl.searchParams.get("after");
  if (after !== null && (after.length === 0 || after.length > MAX_CURSOR_LENGTH)) {
    return NextResponse.json(
      { error: { code: "invalid_cursor", message: "The page cursor is not valid." } },
      { status: 400, headers: { "cache-control": "no-store" } },
    );
  }
  const buffer = new CookieBuffer();
  try {
    // One deadline for all this route asks the site (refresh, pages, retries): it answers in bounded time.
    const data = await withSiteDeadline(PAGE_VIEW_DEADLINE_MS, () =>
      callWithMemberSession(requestResponseJar(request.cookies, buffer), (accessToken) => loadAccountPage(resource, accessToken, after)),
    );
    return buffer.applyTo(NextResponse.json(data, { headers: { "cache-control": "no-store" } }));
  } catch (error) {
    return buffer.applyTo(apiErrorResponse(error));
  }
}
