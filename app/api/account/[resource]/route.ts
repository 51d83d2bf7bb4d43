import { requireGrantedScope } from "@/lib/auth/granted-scopes";
import { accountPageKeyOf, loadAccountPage } from "@/lib/account-api/registry";
import { memberJsonRoute } from "@/lib/http/member-route";
import { pageCursorOf } from "@/lib/http/request-errors";
import { timeZoneOfCookies } from "@/lib/i18n/time-zone";

export const dynamic = "force-dynamic";

/** The data route of one page: `GET /api/account/{overview|courses|orders|events}?after=<cursor>`. */
export const GET = memberJsonRoute("/api/account/[resource]", async (request, { params }: { params: Promise<{ resource: string }> }) => {
  const key = accountPageKeyOf((await params).resource);
  const after = pageCursorOf(request.nextUrl.searchParams);
  // The member's time zone, as the page that asks was rendered in (app/_lib/request-locale.ts).
  const timeZone = timeZoneOfCookies(request.cookies);
  return (_accessToken, session) => {
    requireGrantedScope(session);
    return loadAccountPage(key, session, after, timeZone);
  };
});
