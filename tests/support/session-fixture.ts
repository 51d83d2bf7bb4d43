import { newSessionId, type SessionData } from "@/lib/session/session";

/** A signed-in member's session whose access token ("at-0", refresh token "rt-0") expires in 10 seconds. */
export function expiringSession(overrides: Partial<SessionData> = {}): SessionData {
  const now = Date.now();
  return {
    v: 1,
    sid: newSessionId(),
    accessToken: "at-0",
    refreshToken: "rt-0",
    accessTokenExpiresAt: now + 10_000,
    scopes: ["openid", "account:read"],
    claims: { sub: "s", name: "Maya", email: "m@example.com", orgId: "o", roles: [] },
    createdAt: now,
    lastSeenAt: now,
    ...overrides,
  };
}
