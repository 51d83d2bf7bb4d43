import "server-only";

import * as oauth from "oauth4webapi";

import type { SessionData } from "@/lib/session/session";

import { getSiteMetadata } from "./discovery";
import { AuthError } from "./errors";
import { oauthClient, siteRequestOptions } from "./site-http";

/**
 * Revokes the member's tokens at the site (RFC 7009 section 2.1): the refresh token first (a site
 * then ends the whole grant), then the access token, each with `token_type_hint` and client
 * authentication. A site that cannot be reached raises revocation_unavailable: the caller keeps the
 * session and says so, rather than pretending access was revoked.
 */
export async function revokeAtSite(session: SessionData): Promise<void> {
  const { as } = await getSiteMetadata();
  if (!as.revocation_endpoint) {
    throw new AuthError("site_misconfigured", "The site's metadata lists no revocation endpoint.");
  }
  const { client, auth } = oauthClient();
  const tokens: [string, "refresh_token" | "access_token"][] = [];
  if (session.refreshToken) tokens.push([session.refreshToken, "refresh_token"]);
  tokens.push([session.accessToken, "access_token"]);
  for (const [token, hint] of tokens) {
    try {
      const response = await oauth.revocationRequest(as, client, auth, token, {
        additionalParameters: { token_type_hint: hint },
        ...siteRequestOptions(),
      });
      await oauth.processRevocationResponse(response);
    } catch (error) {
      // RFC 7009 section 2.2: 200 even for unknown tokens, so any failure here means the site did not do it.
      throw new AuthError("revocation_unavailable", "The site could not be reached to revoke access.", { cause: error });
    }
  }
}
