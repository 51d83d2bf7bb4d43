/**
 * "Where you're signed in" as the browser sees it (GET /api/sessions): no token, no session id, no
 * address; the browser and system in words, times coarse. Client-safe: no server-only import.
 */
/** At most this many sessions listed per member; a sign-in past it ends the least recently active one. */
export const MAX_SESSIONS_PER_MEMBER = 20;

export interface SignedInSessionView {
  /** An opaque handle of this entry, for "Sign out there" (not the session's id). */
  id: string;
  current: boolean;
  browser: string;
  system: string;
  embedded: boolean;
  /** ISO 8601. */
  signedInAt: string;
  /** ISO 8601, to the SESSION_ACTIVITY_RESOLUTION (5 minutes). */
  lastActiveAt: string;
}

export interface SignedInSessionsBody {
  sessions: SignedInSessionView[];
}

/** POST /api/sessions/end: one other session by its id, or every other one. */
export type EndSessionsRequest = { id: string } | { others: true };
