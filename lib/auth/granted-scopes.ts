import "server-only";

import { getConfig } from "@/lib/config";
import type { SessionData } from "@/lib/session/session";
import { SiteError } from "@/lib/site/errors";

/**
 * The scopes without which the dashboard cannot work: `openid` (who the member is, at UserInfo) and
 * `account:read` (every page's data), each only when the operator asks for it. `profile` and `email`
 * are welcome but optional: a member may decline them (RFC 6749 section 3.3 lets the site grant less).
 */
const NEEDED_SCOPES = ["openid", "account:read"] as const;

/** The scope the Account API needs (docs/architecture.md section 5). */
export const ACCOUNT_API_SCOPE = "account:read";

/**
 * RFC 6749 section 5.1: the token response's `scope` is what was granted; absent, it is what was asked.
 * Section 3.3 delimits scopes with spaces. A site that writes commas between them (GitHub's OAuth apps:
 * "openid,account:read") is read the same when every part is a scope that was asked for: a scope token
 * may hold a comma, but none the dashboard asks for does, so no other reading is taken from it.
 */
export function grantedScopesOf(scope: string | undefined, requested: readonly string[]): string[] {
  if (typeof scope !== "string") return [...requested];
  if (scope.includes(",")) {
    const parts = scope.split(/[ ,]+/).filter(Boolean);
    if (parts.every((part) => requested.includes(part))) return parts;
  }
  return scope.split(" ").filter(Boolean);
}

/** The needed scopes (of those the operator asks for) that `granted` lacks, in a stable order. */
export function missingNeededScopes(granted: readonly string[]): string[] {
  const { scopes } = getConfig();
  return NEEDED_SCOPES.filter((scope) => scopes.includes(scope) && !granted.includes(scope));
}

/**
 * A page whose scope the member did not grant is told so before the site is asked (RFC 6750 section
 * 3.1 insufficient_scope, named): the page offers to sign in again asking for it.
 */
export function requireGrantedScope(session: Pick<SessionData, "scopes">, scope: string = ACCOUNT_API_SCOPE): void {
  if (!getConfig().scopes.includes(scope) || session.scopes.includes(scope)) return;
  throw new SiteError("insufficient_scope", "The member has not granted the permission this page needs.", { detail: scope });
}
