import "server-only";

import { cookies } from "next/headers";

import { readOnlyJar } from "@/lib/session/cookie-jar";
import { loadSession, type SessionData } from "@/lib/session/session";

/**
 * The signed-in member for a page render, or null. Never refreshes and never writes: the proxy has
 * already refreshed a token about to expire, and a render cannot persist a rotated refresh token.
 */
export async function getPageSession(): Promise<SessionData | null> {
  const loaded = await loadSession(readOnlyJar(await cookies()));
  return loaded?.data ?? null;
}
