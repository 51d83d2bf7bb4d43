import "server-only";

import * as oauth from "oauth4webapi";

import { SITE_BUSY } from "@/lib/contract/errors";
import type { SessionClaims } from "@/lib/session/session";
import { isTransientSiteFailure, oauthClient, siteRequestOptions } from "@/lib/site/oauth-http";
import { isThrottledAnswer } from "@/lib/site/site-busy";

import { dpopOptions, sendOnceMoreOnDpopNonce, type MemberBinding } from "./dpop";
import { AuthError } from "./errors";

/** oauth4webapi's codes for an answer that is no UserInfo answer: a status other than 200, or a body that is not JSON. */
const USERINFO_NOT_ANSWERED: ReadonlySet<string> = new Set([oauth.RESPONSE_IS_NOT_CONFORM, oauth.RESPONSE_IS_NOT_JSON, oauth.PARSE_ERROR]);

/** Reads the member's claims from UserInfo and keeps only the allow-listed ones. */
export async function fetchUserInfoClaims(
  as: oauth.AuthorizationServer,
  accessToken: string,
  binding: MemberBinding = {},
): Promise<SessionClaims> {
  const { client } = oauthClient();
  let info: oauth.UserInfoResponse;
  try {
    // RFC 9449 section 7: a DPoP-bound token goes with a proof (and `ath`), one retry for a nonce.
    const options =
      binding.tokenType === "DPoP" && binding.dpopKey
        ? await dpopOptions(binding.dpopKey, as.userinfo_endpoint!, siteRequestOptions())
        : siteRequestOptions();
    const response = await sendOnceMoreOnDpopNonce(() => oauth.userInfoRequest(as, client, accessToken, options));
    // OpenID Connect Core 5.3.2: a signed (application/jwt) answer would have to be verified like an
    // id_token; oauth4webapi reads it without checking the signature, so the dashboard refuses it.
    if (/^application\/jwt\b/i.test(response.headers.get("content-type") ?? "")) {
      throw new AuthError("userinfo_mismatch", "UserInfo answered with a signed JWT, which the dashboard does not accept.", {
        detail: "signed_userinfo",
      });
    }
    // The subject is compared to the id_token's by compareClaims below, with every other claim.
    info = await oauth.processUserInfoResponse(as, client, oauth.skipSubjectCheck, response);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    if (error instanceof oauth.OperationProcessingError && USERINFO_NOT_ANSWERED.has(error.code ?? "")) {
      // Not a UserInfo answer at all (a status other than 200, a body that is not JSON): the site is not
      // answering properly, which says nothing about the member; the sign-in is refused all the same.
      const status = error.code === oauth.RESPONSE_IS_NOT_CONFORM && error.cause instanceof Response ? error.cause.status : undefined;
      throw new AuthError("site_unavailable", "The site's UserInfo endpoint did not answer properly.", {
        cause: error,
        // RFC 6585 section 4: 429 (or a 403 with a wait) is a site that limits how often it answers; the problem page says it is busy.
        detail: isThrottledAnswer(error) ? SITE_BUSY : status === undefined ? "not_json" : String(status),
      });
    }
    if (error instanceof oauth.OperationProcessingError) {
      throw new AuthError("userinfo_mismatch", "UserInfo's answer does not describe a member.", { cause: error, detail: "missing_claims" });
    }
    if (isTransientSiteFailure(error))
      throw new AuthError("site_unavailable", "The site's UserInfo endpoint did not answer.", { cause: error });
    throw new AuthError("userinfo_mismatch", "The site's UserInfo endpoint refused the new access token.", { cause: error });
  }
  const roles = info.roles;
  if (typeof info.sub !== "string" || info.sub === "") {
    throw new AuthError("userinfo_mismatch", "UserInfo lacks the member's subject.", { detail: "missing_claims" });
  }
  return {
    sub: info.sub,
    // Absent when the member did not grant `email` (partial consent, RFC 6749 section 3.3): not an alarm.
    email: typeof info.email === "string" ? info.email : "",
    name: typeof info.name === "string" ? info.name : "",
    orgId: typeof info.org_id === "string" ? info.org_id : "",
    roles: Array.isArray(roles) ? roles.filter((role): role is string => typeof role === "string") : [],
  };
}

/** The scope a standard claim is granted with (OpenID Connect Core 5.4); `org_id` and `roles` are the site's own. */
const SCOPE_OF_CLAIM: Readonly<Record<string, string>> = { email: "email", name: "profile" };

/**
 * docs/architecture.md section 6.4 and OpenID Connect Core 5.3.2: sub, email, name, org_id and roles from
 * UserInfo must equal the id_token's. Returns the name of the first claim that differs.
 *
 * `sub` always, and every other claim the id_token carries. One it leaves out is UserInfo's to give: with
 * the authorization code flow, OpenID Connect Core 5.4 returns the scopes' claims from UserInfo, and a site
 * may keep its id_token that thin (the sandbox's `idTokenSubjectOnly`), as a site without id_tokens relies
 * on UserInfo alone. Except a claim of a scope the member did not grant (`grantedScopes`): UserInfo may not
 * give what the id_token, following the grant, left out (partial consent).
 */
export function findClaimMismatch(
  fromIdToken: Record<string, unknown>,
  fromUserInfo: SessionClaims,
  grantedScopes: readonly string[],
): string | null {
  if (fromIdToken.sub !== fromUserInfo.sub) return "sub";
  const pairs: [string, unknown, unknown][] = [
    ["email", fromIdToken.email, fromUserInfo.email],
    ["name", fromIdToken.name, fromUserInfo.name],
    ["org_id", fromIdToken.org_id, fromUserInfo.orgId],
    ["roles", fromIdToken.roles === undefined ? undefined : rolesAsSet(fromIdToken.roles), rolesAsSet(fromUserInfo.roles)],
  ];
  for (const [claim, written, inUserInfo] of pairs) {
    // OpenID Connect Core 5.3.2: a claim without a value is left out; one written null (a serializer that writes
    // every field) is read as left out, as UserInfo's null is read as no value ("").
    const inIdToken = written === null ? undefined : written;
    const scope = SCOPE_OF_CLAIM[claim];
    const leftOutByGrant = scope !== undefined && !grantedScopes.includes(scope);
    if (inIdToken === undefined ? leftOutByGrant && inUserInfo !== "" : inIdToken !== inUserInfo) return claim;
  }
  return null;
}

/**
 * The member's roles as a set, written one way: a site may list them in another order in UserInfo than in
 * the id_token (read from its database without an order), and that is no other member. Anything but a
 * list of strings stays as it came, so it differs from any list UserInfo gives.
 */
function rolesAsSet(roles: unknown): string {
  const strings = Array.isArray(roles) && roles.every((role) => typeof role === "string");
  return JSON.stringify(strings ? [...new Set(roles)].sort() : roles);
}
