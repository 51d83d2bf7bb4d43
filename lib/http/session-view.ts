import "server-only";

import { getConfig } from "@/lib/config";
import type { SessionData } from "@/lib/session/session";

/** The browser's view of a session: an allow-list of claims and the granted scopes. Never a token. */
export interface SessionView {
  sub: string;
  name: string;
  email: string;
  orgId: string;
  roles: string[];
  scopes: string[];
  site: string;
  grantedAt: string;
}

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
