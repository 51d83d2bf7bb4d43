import "server-only";

import type * as oauth from "oauth4webapi";

import { LayerError } from "@/lib/errors/layer-error";

/**
 * The error type of the site's resources (lib/site: the Account API and the MCP server), with stable
 * codes. `token_refused` is the one a data route answers by refreshing once and retrying once
 * (lib/auth/member-session.ts); lib/http/error-responses.ts maps every code to what the browser is told.
 */
export type SiteErrorCode = "account_api_failed" | "insufficient_scope" | "token_audience_mismatch" | "token_refused";

export class SiteError extends LayerError<SiteErrorCode> {
  override name = "SiteError";
}

export function isSiteError(error: unknown, code?: SiteErrorCode): error is SiteError {
  return error instanceof SiteError && (code === undefined || error.code === code);
}

/** `detail` of a `token_refused` whose challenge pointed at our own resource metadata (RFC 9728). */
export const REFUSED_WITH_METADATA = "invalid_token_with_metadata";

/**
 * What a resource's Bearer challenge (401 or 403 with WWW-Authenticate, parsed by oauth4webapi) says,
 * as a SiteError. `resource` names the resource in our own messages; `ownMetadataUrls` are the
 * resource_metadata pointers that belong to SITE_URL.
 */
export function refusalOfChallenge(
  error: oauth.WWWAuthenticateChallengeError,
  resource: { name: string; ownMetadataUrls: readonly string[] },
): SiteError {
  const bearer = error.cause.find((challenge) => challenge.scheme === "bearer");
  const code = bearer?.parameters.error;
  const resourceMetadata = bearer?.parameters.resource_metadata;
  if (error.status === 403 || code === "insufficient_scope") {
    // RFC 6750 section 3.1: the challenge names the scope the token lacks.
    // No re-authorization with the scopes it names and no refresh (RFC 9700 section 2.3): a "not permitted" answer.
    return new SiteError("insufficient_scope", `The member has not granted the permission the ${resource.name} needs.`, {
      detail: plainScopes(bearer?.parameters.scope) ?? "account:read",
    });
  }
  // RFC 9728 section 5.1: a resource_metadata pointer naming another place than our site means our
  // tokens are meant for another resource. That is configuration, not something a new sign-in fixes,
  // and the pointer is never fetched.
  if (resourceMetadata !== undefined && !resource.ownMetadataUrls.includes(resourceMetadata)) {
    return new SiteError("token_audience_mismatch", `The ${resource.name} belongs to another resource than SITE_URL.`, { cause: error });
  }
  // RFC 6750 section 3.1 invalid_token: the caller may refresh once and retry once.
  return new SiteError("token_refused", `The ${resource.name} refused the access token.`, {
    cause: error,
    detail: resourceMetadata === undefined ? "invalid_token" : REFUSED_WITH_METADATA,
  });
}

/**
 * The scope tokens of a challenge that our answers may repeat: a few short ones of a plain form. The rest
 * of the site's text (markup, control characters, a huge value) is never reflected (OWASP ASVS 5 V1.2.1).
 */
function plainScopes(scope: string | undefined): string | undefined {
  const tokens = (scope ?? "")
    .slice(0, 1024)
    .split(" ")
    .filter((token) => /^[A-Za-z0-9:._/-]{1,64}$/.test(token))
    .slice(0, 8);
  return tokens.length > 0 ? tokens.join(" ") : undefined;
}
