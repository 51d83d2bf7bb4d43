import { RequestCookies } from "@edge-runtime/cookies";
import { NextResponse } from "next/server";

import { requireGrantedScope } from "@/lib/auth/granted-scopes";
import { callWithMemberSession } from "@/lib/auth/member-session";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import { PAGE_VIEW_DEADLINE_MS, withSiteDeadline } from "@/lib/site/site-fetch";
import { isAccountPageKey, loadAccountPage } from "@/lib/site/account-pages";
import { memberJson } from "@/lib/http/member-json";
import { loggedRoute } from "@/lib/http/request-log";
import { serveAtFrontDoor } from "@/lib/http/front-door-route";
import { ACCOUNT_PAGES } from "@/lib/contract/account-pages";

export const dynamic = "force-dynamic";

export const GET = loggedRoute("/api/account/[resource]", handleGet);

// The data routes, the dashboard's hottest path, are also served ahead of Next.js's router once this
// module is loaded: the same handler, without the 3 to 4 ms Next.js adds to a request (lib/http/front-door.ts).
for (const [resource, { path }] of Object.entries(ACCOUNT_PAGES))
  serveAtFrontDoor(path, (request) => GET(request, { params: Promise.resolve({ resource }) }));

const MAX_CURSOR_LENGTH = 512;

/**
 * The data route of one page: `GET /api/account/{overview|courses|orders|events}?after=<cursor>`. A plain
 * Fetch `Request` is all it reads (the front door hands it one, Next.js a NextRequest), its cookies
 * parsed by the same library as NextRequest's.
 */
async function handleGet(request: Request, context: { params: Promise<{ resource: string }> }) {
  const { resource } = await context.params;
  if (!isAccountPageKey(resource)) {
    return NextResponse.json(
      { error: { code: "not_found", message: "There is no such account page." } },
      { status: 404, headers: { "cache-control": "no-store" } },
    );
  }
  const after = new URL(request.url).searchParams.get("after");
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
      callWithMemberSession(requestResponseJar(new RequestCookies(request.headers), buffer), (accessToken, session) => {
        requireGrantedScope(session);
        return loadAccountPage(resource, accessToken, after);
      }),
    );
    return buffer.applyTo(await memberJson(data, request.headers));
  } catch (error) {
    return buffer.applyTo(apiErrorResponse(error));
  }
}
