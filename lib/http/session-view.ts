import "server-only";

import { getConfig } from "@/lib/config";
import type { SessionData } from "@/lib/session/session";
import type { SessionView } from "@/lib/contract/session";

/** The browser's view of a session (lib/contract/session.ts): an allow-list of claims and the granted scopes. Never a token. */
export function toSessionView(session: SessionData): SessionView {
  return {
    sub: session.claims.sub,
    name: session.claims.name,
    email: session.claims.email,
    orgId: session.claims.orgId,
    roles: session.claims.roles,
    scopes: session.scopes,
    site: getConfig().siteUrl,
    grantedAt: new Date(session.createdAt).toISOString(),
  };
}
