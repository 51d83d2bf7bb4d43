/**
 * In-memory store of the sandbox: browser sessions, pending authorization requests, authorization codes,
 * grants and the access and refresh tokens issued from them.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

import type { SignInLanguage } from "./sign-in-words";

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * Compares a presented secret with a stored SHA-256 (hex) hash in constant time.
 * @see RFC 6749 section 2.3.1 (client secrets), section 10.3
 */
export function secretMatchesHash(secret: string, hashHex: string): boolean {
  const presented = createHash("sha256").update(secret, "utf8").digest();
  const stored = Buffer.from(hashHex, "hex");
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

/** Constant-time string comparison (hashes first so that lengths do not leak). */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash("sha256").update(a).digest();
  const right = createHash("sha256").update(b).digest();
  return timingSafeEqual(left, right);
}

export interface BrowserSession {
  id: string;
  memberId: string;
  csrfToken: string;
  createdAt: number;
  /** A one-time notice for the next admin page (e.g. "Deleted ..."). */
  flash?: string;
}

export interface PendingAuthorization {
  id: string;
  /** Random value of the `sandbox_browser` cookie of the browser that started the request. */
  browserId: string;
  csrfToken: string;
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  nonce: string | undefined;
  codeChallenge: string;
  resource: string | undefined;
  /** RFC 9449 section 10: the thumbprint of the key the code is bound to (`dpop_jkt`). */
  dpopJkt?: string | undefined;
  /** The language of the sign-in and consent pages (`ui_locales`, with the localizedSignIn knob). */
  language: SignInLanguage;
  createdAt: number;
}

export interface AuthorizationCode {
  code: string;
  clientId: string;
  memberId: string;
  redirectUri: string;
  scopes: string[];
  nonce: string | undefined;
  codeChallenge: string;
  resource: string | undefined;
  dpopJkt?: string | undefined;
  issuedAt: number;
  /** Set when the code has been presented once (successfully or not). */
  usedAt: number | undefined;
  /** The grant created by a successful exchange. */
  grantId: string | undefined;
}

export interface Grant {
  id: string;
  clientId: string;
  memberId: string;
  scopes: string[];
  /** The resource (RFC 8707) the grant's tokens are bound to. */
  resource: string;
  /** Set when the grant's tokens are DPoP-bound (RFC 9449): every refresh must prove this key. */
  dpopJkt?: string | undefined;
  createdAt: number;
  revokedAt: number | undefined;
}

export interface AccessTokenRecord {
  token: string;
  grantId: string;
  clientId: string;
  memberId: string;
  scopes: string[];
  resource: string;
  /** The JWK thumbprint of the key a DPoP-bound token is bound to (RFC 9449 section 6). */
  dpopJkt?: string | undefined;
  issuedAt: number;
  expiresAt: number;
  revokedAt: number | undefined;
}

export interface RefreshTokenRecord {
  token: string;
  grantId: string;
  clientId: string;
  memberId: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number;
  /** `rotated`: replaced by a newer refresh token; presenting it again revokes the whole grant. */
  status: "active" | "rotated" | "revoked";
}

/** An authorization request pushed to the PAR endpoint (RFC 9126), redeemed once by its `request_uri`. */
export interface PushedAuthorization {
  requestUri: string;
  clientId: string;
  /** The authorization request's parameters, as the client pushed them. */
  parameters: string;
  expiresAt: number;
}

export const PENDING_AUTHORIZATION_TTL_MS = 10 * 60_000;
/** RFC 9126 section 2.2: a short lifetime; 60 seconds is the RFC's own example. */
export const PUSHED_AUTHORIZATION_TTL_SECONDS = 60;
export const AUTHORIZATION_CODE_TTL_MS = 60_000;

export class SandboxStore {
  readonly sessions = new Map<string, BrowserSession>();
  readonly pending = new Map<string, PendingAuthorization>();
  readonly pushed = new Map<string, PushedAuthorization>();
  readonly codes = new Map<string, AuthorizationCode>();
  readonly grants = new Map<string, Grant>();
  readonly accessTokens = new Map<string, AccessTokenRecord>();
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();

  clear(): void {
    this.sessions.clear();
    this.pending.clear();
    this.pushed.clear();
    this.codes.clear();
    this.grants.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
  }

  /** Ends every access and refresh token of a grant. */
  revokeGrant(grantId: string, now: number): void {
    const grant = this.grants.get(grantId);
    if (grant && grant.revokedAt === undefined) grant.revokedAt = now;
    for (const record of this.accessTokens.values()) {
      if (record.grantId === grantId && record.revokedAt === undefined) record.revokedAt = now;
    }
    for (const record of this.refreshTokens.values()) {
      if (record.grantId === grantId) record.status = "revoked";
    }
  }

  /** Ends every grant, code and pending request of a client (used when the client is deleted). */
  revokeClient(clientId: string, now: number): void {
    for (const grant of this.grants.values()) {
      if (grant.clientId === clientId) this.revokeGrant(grant.id, now);
    }
    for (const [code, record] of this.codes) if (record.clientId === clientId) this.codes.delete(code);
    for (const [id, pending] of this.pending) if (pending.clientId === clientId) this.pending.delete(id);
  }

  /** The access token if it is currently usable, or a reason it is not. */
  checkAccessToken(token: string, now: number): { ok: true; record: AccessTokenRecord } | { ok: false; reason: string } {
    const record = this.accessTokens.get(token);
    if (!record) return { ok: false, reason: "The access token is not recognized" };
    if (record.revokedAt !== undefined) return { ok: false, reason: "The access token has been revoked" };
    const grant = this.grants.get(record.grantId);
    if (!grant || grant.revokedAt !== undefined) return { ok: false, reason: "The access token has been revoked" };
    if (now >= record.expiresAt) return { ok: false, reason: "The access token has expired" };
    return { ok: true, record };
  }

  /** Drops expired pending requests and codes so that a long-running demo does not grow without bound. */
  sweep(now: number): void {
    for (const [id, pending] of this.pending) {
      if (now - pending.createdAt > PENDING_AUTHORIZATION_TTL_MS) this.pending.delete(id);
    }
    for (const [code, record] of this.codes) {
      // Keep used codes a while longer so that a replay can still revoke the tokens issued from them.
      if (now - record.issuedAt > 10 * AUTHORIZATION_CODE_TTL_MS) this.codes.delete(code);
    }
  }
}
