import { NextResponse } from "next/server";

import { isAuthError } from "@/lib/auth/errors";
import { revokeAtSite } from "@/lib/auth/revocation";
import { endSessionForSignOut } from "@/lib/auth/sign-out";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { withClearedSiteCookies } from "@/lib/http/signed-out-response";
import { signOutHandler } from "@/lib/http/sign-out-route";
import { SessionError } from "@/lib/session/errors";
import { loggedRoute } from "@/lib/http/request-log";
import { logEvent } from "@/lib/log/logger";
import { API_ROUTES } from "@/lib/contract/paths";

export const dynamic = "force-dynamic";

/**
 * Revokes the member's tokens at the site (RFC 7009), then ends the session. When the site cannot be
 * reached, the session is kept and the answer says so, so the member can retry. When the site refuses
 * (a configuration fault, RFC 7009 section 2.2.1), retrying cannot help: the session ends here and the
 * answer says plainly that the site did not revoke.
 */
export const POST = loggedRoute(
  API_ROUTES.revoke,
  signOutHandler(async ({ jar, buffer, sessions }) => {
    if (sessions.length === 0) throw new SessionError("unauthenticated", "No one is signed in.");
    // Every session the browser holds here (top-level and embedded): each grant is revoked. Revoking a
    // token twice is harmless (RFC 7009 section 2.2: 200 for an unknown token), so a retry after an
    // unreachable site starts over.
    let refused: unknown;
    for (const session of sessions) {
      try {
        await revokeAtSite(session.data);
      } catch (error) {
        if (!isAuthError(error, "revocation_refused")) throw error;
        refused ??= error;
      }
    }
    if (refused !== undefined) {
      await endSessionForSignOut(jar, sessions);
      return withClearedSiteCookies(buffer, apiErrorResponse(refused));
    }
    logEvent("access_revoked", { sessions: sessions.length });
    await endSessionForSignOut(jar, sessions);
    return withClearedSiteCookies(buffer, NextResponse.json({ revoked: true }));
  }),
);
