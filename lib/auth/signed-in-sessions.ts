import "server-only";

import Bowser from "bowser";
import { createHash } from "node:crypto";

import { MAX_SESSIONS_PER_MEMBER, type SignedInSessionView } from "@/lib/contract/signed-in-sessions";
import { logEvent } from "@/lib/log/logger";
import { openSessionSeal, sealWithSessionSecret } from "@/lib/session/seal";
import {
  isSessionEnded,
  markSessionEnded,
  SESSION_ABSOLUTE_LIFETIME_MS,
  SESSION_IDLE_LIFETIME_MS,
  type SessionData,
  type SessionVariant,
} from "@/lib/session/session";
import { getSharedState } from "@/lib/session/shared-state";

import { AuthError, isAuthError } from "./errors";
import { revokeAtSite } from "./revocation";

/** "Last active" is kept to this resolution: coarse on purpose. */
const ACTIVITY_RESOLUTION_MS = 5 * 60 * 1000;

/**
 * One entry of the member's list in the shared state. Nothing identifies the member beyond the site's
 * subject (and that only as the key's digest); the grant is sealed with the session secret
 * (lib/session/seal.ts) and opened only to revoke it, never stored in the clear.
 */
interface SessionRecord {
  sid: string;
  createdAt: number;
  lastActiveAt: number;
  browser: string;
  system: string;
  embedded: boolean;
  /** Sealed { accessToken, refreshToken }, and the DPoP key and token type when the tokens are DPoP-bound. */
  grant: string;
}

type Grant = Pick<SessionData, "accessToken" | "refreshToken" | "dpopKey" | "tokenType">;

function listKey(subject: string): string {
  return `member-sessions:${digest(subject)}`;
}

function entryId(sid: string): string {
  return digest(`entry:${sid}`).slice(0, 22);
}

function digest(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}

function coarse(time: number): number {
  return Math.floor(time / ACTIVITY_RESOLUTION_MS) * ACTIVITY_RESOLUTION_MS;
}

/** The browser and system of a User-Agent, in words ("Chrome", "Android"); the User-Agent itself is not kept. */
export function describeDevice(userAgent: string | null | undefined): { browser: string; system: string } {
  if (!userAgent) return { browser: "", system: "" };
  const parsed = Bowser.parse(userAgent.slice(0, 512));
  return { browser: parsed.browser.name ?? "", system: parsed.os.name ?? "" };
}

async function sealGrant(session: Grant): Promise<string> {
  // A site may require a proof of the tokens' key to revoke them (RFC 9449): the key goes sealed with them.
  const binding = session.tokenType === "DPoP" && session.dpopKey ? { dpopKey: session.dpopKey, tokenType: session.tokenType } : {};
  const grant: Grant = { accessToken: session.accessToken, refreshToken: session.refreshToken, ...binding };
  return sealWithSessionSecret(grant, 0);
}

async function readRecords(subject: string): Promise<Map<string, SessionRecord>> {
  const fields = await getSharedState().readFields(listKey(subject));
  return new Map(Object.entries(fields).map(([id, value]) => [id, JSON.parse(value) as SessionRecord]));
}

async function writeRecord(subject: string, record: SessionRecord): Promise<number> {
  return getSharedState().setField(listKey(subject), entryId(record.sid), JSON.stringify(record), SESSION_ABSOLUTE_LIFETIME_MS);
}

function isLive(record: SessionRecord, now: number): boolean {
  return (
    now - record.createdAt <= SESSION_ABSOLUTE_LIFETIME_MS && now - record.lastActiveAt <= SESSION_IDLE_LIFETIME_MS + ACTIVITY_RESOLUTION_MS
  );
}

/** Adds a new sign-in to the member's list; past MAX_SESSIONS_PER_MEMBER the least recently active other one ends. */
export async function recordSignIn(session: SessionData, variant: SessionVariant, userAgent: string | null | undefined): Promise<void> {
  const now = Date.now();
  const size = await writeRecord(session.claims.sub, {
    sid: session.sid,
    createdAt: session.createdAt,
    lastActiveAt: coarse(now),
    ...describeDevice(userAgent),
    embedded: variant === "embedded",
    grant: await sealGrant(session),
  });
  if (size <= MAX_SESSIONS_PER_MEMBER) return;
  const records = [...(await readRecords(session.claims.sub)).entries()].filter(([, record]) => record.sid !== session.sid);
  // Activity is kept to five minutes, so ties are common: the older sign-in goes first (Redis gives a hash's
  // fields in no set order).
  records.sort(([, a], [, b]) => a.lastActiveAt - b.lastActiveAt || a.createdAt - b.createdAt);
  for (const [id, record] of records.slice(0, size - MAX_SESSIONS_PER_MEMBER)) {
    await endRecord(session.claims.sub, id, record);
  }
}

/**
 * Keeps the member's entry current: its last activity (coarse) and, after a rotation, the sealed grant,
 * so "Sign out there" revokes the refresh token that is live now.
 */
export async function noteSessionActivity(session: SessionData): Promise<void> {
  const id = entryId(session.sid);
  const record = (await readRecords(session.claims.sub)).get(id);
  if (!record) return;
  await writeRecord(session.claims.sub, { ...record, lastActiveAt: coarse(session.lastSeenAt), grant: await sealGrant(session) });
}

/** The member's sessions on this dashboard, this one first, then by last activity; ended and expired ones are dropped. */
export async function listSignedInSessions(current: SessionData): Promise<SignedInSessionView[]> {
  const now = Date.now();
  const views: SignedInSessionView[] = [];
  for (const [id, record] of await readRecords(current.claims.sub)) {
    const isCurrent = record.sid === current.sid;
    if (!isCurrent && (!isLive(record, now) || (await isSessionEnded(record.sid)))) {
      await getSharedState().deleteField(listKey(current.claims.sub), id);
      continue;
    }
    views.push({
      id,
      current: isCurrent,
      browser: record.browser,
      system: record.system,
      embedded: record.embedded,
      signedInAt: new Date(record.createdAt).toISOString(),
      lastActiveAt: new Date(isCurrent ? coarse(Math.max(record.lastActiveAt, current.lastSeenAt)) : record.lastActiveAt).toISOString(),
    });
  }
  return views.sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt));
}

/**
 * Ends another session of the member ("Sign out there"), or every other one: marked ended in the shared
 * state (its cookie stops working at once, on every instance), then its grant revoked at the site
 * (RFC 7009), so its refresh token is dead too. Says whether every revocation was confirmed.
 */
export async function endOtherSessions(
  current: SessionData,
  which: { id: string } | { others: true },
): Promise<{ ended: number; complete: boolean }> {
  const records = await readRecords(current.claims.sub);
  const targets = [...records].filter(([id, record]) => record.sid !== current.sid && ("others" in which || id === which.id));
  if ("id" in which && targets.length === 0) {
    throw new AuthError("session_not_found", "That session is not one of yours, or it has already ended.");
  }
  let complete = true;
  for (const [id, record] of targets) complete = (await endRecord(current.claims.sub, id, record)) && complete;
  logEvent("session_ended_elsewhere", { ended: targets.length, revokedAtSite: complete });
  return { ended: targets.length, complete };
}

/** Marks the session ended, revokes its grant, removes its entry. False when the site did not confirm the revocation. */
async function endRecord(subject: string, id: string, record: SessionRecord): Promise<boolean> {
  await markSessionEnded({ sid: record.sid, createdAt: record.createdAt });
  let revoked = true;
  try {
    const grant = await openSessionSeal<Partial<Grant>>(record.grant);
    if (typeof grant.accessToken === "string") {
      const binding = grant.tokenType === "DPoP" && grant.dpopKey ? { dpopKey: grant.dpopKey, tokenType: "DPoP" as const } : {};
      await revokeAtSite({ accessToken: grant.accessToken, refreshToken: grant.refreshToken ?? null, ...binding });
    }
  } catch (error) {
    if (!isAuthError(error)) throw error;
    revoked = false;
  }
  await getSharedState().deleteField(listKey(subject), id);
  return revoked;
}
