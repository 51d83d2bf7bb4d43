import { saveSession, sessionCookieName, type SessionData } from "@/lib/session/session";

import { memoryJar } from "./memory-jar";
import { sessionData } from "./session-data";

/** A signed-in member's session whose access token ("at-0", refresh token "rt-0") expires in 10 seconds. */
export function expiringSession(overrides: Partial<SessionData> = {}): SessionData {
  return sessionData({
    accessToken: "at-0",
    refreshToken: "rt-0",
    accessTokenExpiresAt: Date.now() + 10_000,
    claims: { sub: "s", name: "Maya", email: "m@example.com", orgId: "o", roles: [] },
    ...overrides,
  });
}

/** The Cookie header of a browser signed in with `session`, sealed as the dashboard seals it. */
export async function sessionCookie(session: SessionData = expiringSession()): Promise<string> {
  const jar = memoryJar();
  await saveSession(jar, session);
  return `${sessionCookieName()}=${jar.cookies.get(sessionCookieName())}`;
}
