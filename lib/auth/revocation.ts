import "server-only";

import * as oauth from "oauth4webapi";

import { logEvent } from "@/lib/log/logger";
import type { SessionData } from "@/lib/session/session";
import { isSiteBusyAnswer, oauthClient, siteRequestOptions } from "@/lib/site/oauth-http";

import { getSiteMetadata } from "./discovery";
import { dpopProof, rememberingDpopNonces, sendOnceMoreOnDpopNonce, type DpopKey } from "./dpop";
import { AuthError, safeOAuthErrorCode } from "./errors";
import { withRotationsSettled, type RotatedTokens } from "./tokens";

type TokenHint = "refresh_token" | "access_token";

/**
 * Revokes the member's tokens at the site (RFC 7009 section 2.1), each with `token_type_hint` and
 * client authentication: the refresh token first, then the access token. A site SHOULD end the whole
 * grant with its refresh token (RFC 7009 section 2.1), but may revoke only the token presented: the
 * access token is revoked as well, so a copied cookie holds nothing live at any site, even once an
 * instance that forgot the session's end reads it (OWASP ASVS 5 V7.4.1). When the cookie asking is older
 * than a rotation that already happened, the rotated successors are revoked too, or they would outlive
 * the sign-out.
 *
 * Failures tell the truth: a 4xx from the revocation endpoint (`invalid_client`,
 * `unsupported_token_type`, RFC 7009 section 2.2.1) is a configuration fault (revocation_refused,
 * logged as such; retrying cannot help), anything else means the site was not reached
 * (revocation_unavailable).
 */
export async function revokeAtSite(session: Pick<SessionData, "accessToken" | "refreshToken" | "dpopKey" | "tokenType">): Promise<void> {
  const { as } = await getSiteMetadata();
  if (!as.revocation_endpoint) {
    throw new AuthError("site_misconfigured", "The site's metadata lists no revocation endpoint.");
  }
  // RFC 9449: a site may require a proof of the key a DPoP-bound token is bound to before revoking it.
  const dpopKey = session.tokenType === "DPoP" ? session.dpopKey : undefined;
  if (!session.refreshToken) return revokeGenerations([session], dpopKey);
  // A refresh in flight elsewhere is waited for, and its result revoked with the rest.
  return withRotationsSettled(session.refreshToken, (successors) => revokeGenerations([session, ...successors], dpopKey));
}

async function revokeGenerations(
  generations: Pick<RotatedTokens, "accessToken" | "refreshToken">[],
  dpopKey: DpopKey | undefined,
): Promise<void> {
  const { as } = await getSiteMetadata();
  const { client, auth } = oauthClient();
  const tokens: [string, TokenHint][] = [];
  for (const generation of generations.reverse()) {
    if (generation.refreshToken) tokens.push([generation.refreshToken, "refresh_token"]);
    tokens.push([generation.accessToken, "access_token"]);
  }
  const seen = new Set<string>();
  for (const [token, hint] of tokens) {
    if (seen.has(token)) continue;
    seen.add(token);
    try {
      const options = { additionalParameters: { token_type_hint: hint }, ...siteRequestOptions() };
      let response: Response;
      if (dpopKey === undefined) {
        response = await oauth.revocationRequest(as, client, auth, token, options);
      } else {
        // A DPoP-bound token goes with a proof of its key (htm POST, htu the revocation endpoint), a fresh
        // one per attempt, and one retry when the site asks for a nonce (RFC 9449 section 8), never a loop.
        const observing = rememberingDpopNonces(options);
        const endpoint = as.revocation_endpoint!;
        response = await sendOnceMoreOnDpopNonce(async () =>
          oauth.revocationRequest(as, client, auth, token, { ...observing, headers: { dpop: await dpopProof(dpopKey, "POST", endpoint) } }),
        );
      }
      await oauth.processRevocationResponse(response);
    } catch (error) {
      throw toRevocationError(error, hint);
    }
  }
}

function toRevocationError(error: unknown, hint: TokenHint): AuthError {
  const status = httpStatusOf(error);
  if (oauth.isDPoPNonceError(error)) {
    // A second use_dpop_nonce after the one retry: the site's nonce keeps changing; a later try may succeed.
    logEvent("revocation_failed", { reason: "dpop_nonce", status, tokenTypeHint: hint }, "warn");
    return new AuthError("revocation_unavailable", "The site asked for a fresh DPoP nonce again.", {
      cause: error,
      detail: "use_dpop_nonce",
    });
  }
  // A busy site (429 or a 403 with a wait, or an OAuth body naming server_error or temporarily_unavailable) refused
  // nothing: a later try may succeed.
  if (status !== undefined && status >= 400 && status < 500 && !isSiteBusyAnswer(error)) {
    const oauthError =
      error instanceof oauth.ResponseBodyError
        ? safeOAuthErrorCode(error.error)
        : error instanceof oauth.WWWAuthenticateChallengeError
          ? safeOAuthErrorCode(error.cause[0]?.parameters.error)
          : "unknown";
    logEvent("revocation_failed", { reason: "configuration", status, error: oauthError, tokenTypeHint: hint }, "error");
    return new AuthError(
      "revocation_refused",
      "The site refused to revoke access: the dashboard's client configuration does not match the site.",
      {
        cause: error,
        detail: oauthError,
      },
    );
  }
  logEvent("revocation_failed", { reason: "unreachable", status, tokenTypeHint: hint }, "warn");
  // RFC 7009 section 2.2: 200 even for unknown tokens, so any other failure means the site did not do it.
  return new AuthError("revocation_unavailable", "The site could not be reached to revoke access.", { cause: error });
}

/** The HTTP status of a failed oauth4webapi call, when the site answered at all. */
function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.WWWAuthenticateChallengeError) return error.status;
  if (error instanceof oauth.OperationProcessingError && error.cause instanceof Response) return error.cause.status;
  return undefined;
}
