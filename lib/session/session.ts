import "server-only";

import { getIronSession, type CookieJar, type SessionOptions } from "iron-session";
import { randomUUID } from "node:crypto";

import { getConfig } from "@/lib/config";
import type { DpopKey } from "@/lib/auth/dpop";
import { logEvent } from "@/lib/log/logger";
import { countSessionEnded } from "@/lib/metrics/record";
import { processWide } from "@/lib/server/process-wide";

import { BoundedTtlMap, OPENED_SEAL_MAX_ENTRIES, OPENED_SEAL_TTL_MS, openedSealKey } from "./opened-seals";
import { sealPasswords } from "./seal";
import { getSharedState } from "./shared-state";

export interface SessionClaims {
  sub: string;
  name: string;
  email: string;
  orgId: string;
  roles: string[];
}

/** Only what the BFF needs: tokens, their expiry, granted scopes and the allow-listed claims. */
export interface SessionData {
  v: 1;
  /** A random id, so that a session ended by logout or revocation stays ended on every instance. */
  sid: string;
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds. */
  accessTokenExpiresAt: number;
  /** Epoch milliseconds: when the access token is due for renewal (lib/auth/tokens.ts); absent in older seals. */
  accessTokenRenewAt?: number;
  scopes: string[];
  claims: SessionClaims;
  /** The nonce of the sign-in's id_token, which a refreshed id_token may repeat and nothing else (OpenID Connect Core 12.2). */
  idTokenNonce?: string;
  /**
   * The sign-in's id_token, kept sealed like the tokens: the `id_token_hint` of RP-initiated logout
   * (OpenID Connect RP-Initiated Logout 1.0 section 2), which lets the site end its session without asking.
   */
  idToken?: string;
  /** The session's DPoP private key (RFC 9449), only ever sealed; present when the sign-in bound its tokens. */
  dpopKey?: DpopKey;
  /** "DPoP" when the access token is DPoP-bound (its calls then carry proofs); absent for Bearer. */
  tokenType?: "DPoP";
  /** When the member granted access (signed in), epoch milliseconds. */
  createdAt: number;
  /** Last activity, epoch milliseconds, for the idle lifetime. */
  lastSeenAt: number;
}

/** OWASP ASVS 5 V7.3: an idle lifetime and an absolute lifetime, whatever the site's token lifetimes. */
export const SESSION_IDLE_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const ACTIVITY_RESOLUTION_MS = 5 * 60 * 1000;

/**
 * Where a session lives. "top": the dashboard used in its own tab, a SameSite=Lax cookie. "embedded":
 * the dashboard inside the site's page (a cross-site iframe), where only a SameSite=None; Secure;
 * Partitioned cookie (CHIPS) survives browsers that block third-party cookies. With SameSite no longer
 * guarding it, the Origin check and the custom header (lib/auth/csrf.ts) protect every state change.
 */
export type SessionVariant = "top" | "embedded";
export const SESSION_VARIANTS: readonly SessionVariant[] = ["top", "embedded"];

export function sessionCookieName(variant: SessionVariant = "top"): string {
  // The __Host- prefix pins the cookie to this origin, path / and Secure (RFC 6265bis section 4.1.3.2).
  // Browsers accept Secure cookies from http://localhost, so the embedded cookie keeps it on the local demo.
  if (variant === "embedded") return "__Host-dash_embedded";
  return getConfig().secureCookies ? "__Host-dash_session" : "dash_session";
}

function cookieOptionsFor(variant: SessionVariant) {
  if (variant === "embedded") return { httpOnly: true, secure: true, sameSite: "none" as const, partitioned: true, path: "/" };
  return { httpOnly: true, secure: getConfig().secureCookies, sameSite: "lax" as const, path: "/" };
}

function sessionOptions(variant: SessionVariant, password: Record<string, string> = sealPasswords().opening): SessionOptions {
  return {
    cookieName: sessionCookieName(variant),
    password,
    ttl: Math.ceil(SESSION_IDLE_LIFETIME_MS / 1000),
    chunk: true,
    cookieOptions: cookieOptionsFor(variant),
    onUnsealError: (reason) => {
      if (reason !== "expired") logEvent("session_rejected", { reason }, "warn");
    },
  };
}

function endedKey(sid: string): string {
  return `session-ended:${sid}`;
}

function isComplete(data: Partial<SessionData>): data is SessionData {
  return data.v === 1 && typeof data.sid === "string" && typeof data.accessToken === "string" && data.claims !== undefined;
}

/** True when the cookie was sealed with an older secret, so it should be re-sealed with the newest. */
function sealedWithOlderSecret(jar: CookieJar, name: string): boolean {
  const seal = jar.read(name) ?? jar.read(`${name}.0`);
  // An iron seal reads "Fe26.2*<password id>*...".
  return seal !== undefined && seal.split("*")[1] !== Object.keys(sealPasswords().sealing)[0];
}

export interface LoadedSession {
  data: SessionData;
  /** The session should be written back (activity, or a rotated secret). */
  needsSave: boolean;
  /** The cookie it came from, and so the one it must be written back to. */
  variant: SessionVariant;
}

function hasCookie(jar: CookieJar, name: string): boolean {
  return jar.read(name) !== undefined || jar.read(`${name}.0`) !== undefined;
}

/**
 * Opens the session cookie: the top-level one, else the embedded one (a request carries at most the
 * one of its context). Returns null when there is none, it is invalid, ended, or past a lifetime.
 */
export async function loadSession(jar: CookieJar, now = Date.now()): Promise<LoadedSession | null> {
  return openSession(jar, now, true);
}

async function openSession(jar: CookieJar, now: number, checkEnded: boolean): Promise<LoadedSession | null> {
  for (const variant of SESSION_VARIANTS) {
    if (!hasCookie(jar, sessionCookieName(variant))) continue;
    const loaded = await loadVariant(jar, variant, now, checkEnded);
    if (loaded) return loaded;
  }
  return null;
}

/**
 * Every session the request carries, one per cookie variant present (the top-level and the embedded
 * cookie can both reach a same-site request): what sign-out and revocation must end, every one of them.
 * `checkEnded: false` only for sign-out while the shared state does not answer.
 */
export async function loadEverySession(
  jar: CookieJar,
  options: { checkEnded?: boolean; variant?: SessionVariant } = {},
): Promise<LoadedSession[]> {
  const loaded: LoadedSession[] = [];
  for (const variant of SESSION_VARIANTS) {
    if (options.variant !== undefined && variant !== options.variant) continue;
    if (!hasCookie(jar, sessionCookieName(variant))) continue;
    const session = await loadVariant(jar, variant, Date.now(), options.checkEnded !== false);
    if (session) loaded.push(session);
  }
  return loaded;
}

/** True when the request carries a session cookie of either kind, valid or not. */
export function hasSessionCookie(jar: CookieJar): boolean {
  return SESSION_VARIANTS.some((variant) => hasCookie(jar, sessionCookieName(variant)));
}

/**
 * What session cookies opened to, by cookie values and secrets (lib/session/opened-seals.ts). One for the
 * process (`processWide`): the proxy, the pages and each route handler hold their own copy of this module,
 * and a copy each would open a member's cookie once per copy and multiply the bound.
 */
const openedSeals = processWide("opened-seals", () => new BoundedTtlMap<SessionData>(OPENED_SEAL_MAX_ENTRIES, OPENED_SEAL_TTL_MS));

/** The memory key of the cookie `name` as the jar holds it now: the whole cookie and its chunks, as iron-session reads them. */
function openedSealKeyOf(jar: CookieJar, name: string): string {
  return openedSealKey(
    sealPasswords().openingKey,
    name,
    [name, ...[0, 1, 2, 3].map((index) => `${name}.${index}`)].map((cookie) => jar.read(cookie)),
  );
}

async function openSeal(jar: CookieJar, options: SessionOptions): Promise<SessionData | null> {
  const key = openedSealKeyOf(jar, options.cookieName);
  const remembered = openedSeals.get(key);
  // A copy: callers update lastSeenAt on what they get. The seal's own expiry (sealed at or after
  // lastSeenAt, for the idle lifetime) never comes before the idle check loadVariant makes on every request.
  if (remembered) return { ...remembered };
  const session = await getIronSession<SessionData>(jar, options);
  if (!isComplete(session)) return null;
  const data: SessionData = {
    v: 1,
    sid: session.sid,
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    accessTokenExpiresAt: session.accessTokenExpiresAt,
    ...(typeof session.accessTokenRenewAt === "number" ? { accessTokenRenewAt: session.accessTokenRenewAt } : {}),
    scopes: session.scopes,
    claims: session.claims,
    ...(typeof session.idTokenNonce === "string" ? { idTokenNonce: session.idTokenNonce } : {}),
    ...(typeof session.idToken === "string" ? { idToken: session.idToken } : {}),
    ...(session.dpopKey ? { dpopKey: session.dpopKey } : {}),
    ...(session.tokenType === "DPoP" ? { tokenType: session.tokenType } : {}),
    createdAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
  };
  openedSeals.set(key, { ...data });
  return data;
}

async function loadVariant(jar: CookieJar, variant: SessionVariant, now: number, checkEnded: boolean): Promise<LoadedSession | null> {
  const options = sessionOptions(variant);
  const data = await openSeal(jar, options);
  // Checked on every request, whether the cookie was just opened or remembered.
  if (!data) return null;
  const pastLifetime =
    now - data.createdAt > SESSION_ABSOLUTE_LIFETIME_MS
      ? "absolute"
      : now - data.lastSeenAt > SESSION_IDLE_LIFETIME_MS
        ? "idle"
        : undefined;
  if (pastLifetime) {
    countSessionEnded(pastLifetime);
    return null;
  }
  // Read from the shared state on every load, never cached per instance: a sign-out on one instance holds on all.
  if (checkEnded && (await getSharedState().recall(endedKey(data.sid)))) return null;
  const needsSave = now - data.lastSeenAt > ACTIVITY_RESOLUTION_MS || sealedWithOlderSecret(jar, options.cookieName);
  if (now - data.lastSeenAt > ACTIVITY_RESOLUTION_MS) data.lastSeenAt = now;
  return { data, needsSave, variant };
}

/**
 * Seals the session into the cookie (chunked when tokens are large, so a browser never drops it).
 * A session that was ended meanwhile (logout or revocation by a parallel request) is never written back.
 * `checkEnded: false` only where the shared state does not answer and the site already rotated the tokens.
 */
export async function saveSession(
  jar: CookieJar,
  data: SessionData,
  variant: SessionVariant = "top",
  options: { checkEnded?: boolean } = {},
): Promise<boolean> {
  if (options.checkEnded !== false && (await getSharedState().recall(endedKey(data.sid)))) return false;
  const cookieOptions = sessionOptions(variant, sealPasswords().sealing);
  const session = await getIronSession<SessionData>(jar, { ...cookieOptions, onUnsealError: () => undefined });
  // A fresh seal of exactly `data` (OWASP ASVS 5 V7.2.4, session fixation): nothing of the cookie already
  // there (a planted or replaced session) survives into it. iron-session still clears its stale chunks.
  for (const key of Object.keys(session)) delete (session as unknown as Record<string, unknown>)[key];
  Object.assign(session, data);
  await session.save();
  // The member's next request carries exactly what was just written: it need not be opened again.
  openedSeals.set(openedSealKeyOf(jar, cookieOptions.cookieName), { ...data });
  return true;
}

/**
 * Ends the session everywhere: the id is remembered as ended for as long as any copy of its cookie could
 * still be accepted (the rest of its idle and absolute lifetimes), then the cookie is removed. When the
 * shared state cannot record it, this throws before touching the cookie. When no replica confirms it in
 * time, it stands (logged as shared_state_unreplicated) and the cookie is removed all the same.
 */
export async function endSession(
  jar: CookieJar,
  session: Pick<SessionData, "sid" | "createdAt"> | undefined,
  now = Date.now(),
): Promise<void> {
  if (session) await markSessionEnded(session, now);
  clearSessionCookie(jar);
}

/** Marks the session ended on every instance, without touching any cookie (a session ended from another device). */
export async function markSessionEnded(session: Pick<SessionData, "sid" | "createdAt">, now = Date.now()): Promise<void> {
  // Durable: the member was told the session ended, so a failover must not bring it back (acknowledged
  // once a replica has it, with Sentinel; docs/architecture.md section 8).
  await getSharedState().rememberDurably(endedKey(session.sid), "1", remainingLifeMs(session, now));
}

/** True when the session was ended (sign-out, revocation, or from another device). */
export async function isSessionEnded(sid: string): Promise<boolean> {
  return (await getSharedState().recall(endedKey(sid))) !== undefined;
}

/** How long a copy of this session's cookie could still be accepted: no activity after the end extends it. */
export function remainingLifeMs(session: Pick<SessionData, "createdAt">, now = Date.now()): number {
  return Math.max(1_000, Math.min(SESSION_IDLE_LIFETIME_MS, session.createdAt + SESSION_ABSOLUTE_LIFETIME_MS - now));
}

export function clearSessionCookie(jar: CookieJar): void {
  for (const variant of SESSION_VARIANTS) {
    const name = sessionCookieName(variant);
    for (const chunk of [name, ...[0, 1, 2, 3].map((index) => `${name}.${index}`)]) {
      if (jar.read(chunk) !== undefined) jar.write(chunk, "", { ...cookieOptionsFor(variant), maxAge: 0 });
    }
  }
}

export function newSessionId(): string {
  return randomUUID();
}
