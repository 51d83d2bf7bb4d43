import "server-only";

import { cookies, headers } from "next/headers";
import { cache } from "react";

import { readOnlyJar } from "@/lib/session/cookie-jar";
import { PAGE_SESSION_TICKET_HEADER, takeHandedOffPageSession } from "@/lib/session/page-session-handoff";
import { loadSession, type SessionData } from "@/lib/session/session";
import { isSharedStateUnavailable } from "@/lib/session/shared-state";

/** A page render's view of the member: signed in, not signed in, or unknown because the shared state did not answer. */
export type PageSession = { kind: "member"; session: SessionData } | { kind: "none" } | { kind: "unavailable" };

/**
 * The signed-in member for a page render (once per request: the layout and the page share it). Never
 * refreshes and never writes: the proxy has already refreshed a token about to expire, and a render
 * cannot persist a rotated refresh token. The session the proxy opened and checked for this request is
 * taken as it handed it over; without one, the cookie is opened here. When the shared state does not
 * answer, the session's "ended" check cannot be made: the page says the service is temporarily
 * unavailable (fail closed, cookie kept).
 */
export const readPageSession = cache(async (): Promise<PageSession> => {
  const handedOff = takeHandedOffPageSession((await headers()).get(PAGE_SESSION_TICKET_HEADER));
  if (handedOff) return { kind: "member", session: handedOff };
  try {
    const loaded = await loadSession(readOnlyJar(await cookies()));
    return loaded ? { kind: "member", session: loaded.data } : { kind: "none" };
  } catch (error) {
    if (isSharedStateUnavailable(error)) return { kind: "unavailable" };
    throw error;
  }
});

/** The signed-in member for a page render, or null (also when the shared state does not answer). */
export async function getPageSession(): Promise<SessionData | null> {
  const page = await readPageSession();
  return page.kind === "member" ? page.session : null;
}
