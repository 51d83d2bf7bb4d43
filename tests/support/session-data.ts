import { newSessionId, type SessionData } from "@/lib/session/session";

/** A signed-in member's session as the dashboard stores it, fresh now. */
export function sessionData(overrides: Partial<SessionData> = {}): SessionData {
  const now = Date.now();
  return {
    v: 1,
    sid: newSessionId(),
    accessToken: "access-token",
    refreshToken: "refresh-token",
    accessTokenExpiresAt: now + 3_600_000,
    scopes: ["openid", "account:read"],
    claims: { sub: "s", name: "Maya", email: "maya@example.com", orgId: "o", roles: ["student"] },
    createdAt: now,
    lastSeenAt: now,
    ...overrides,
  };
}
