import "server-only";

import { createHash } from "node:crypto";

/**
 * A map whose entries live at most `ttlMs` and of which at most `maxEntries` are kept (the oldest go
 * first), so that whatever it remembers per member cannot grow the process without bound.
 */
export class BoundedTtlMap<V> {
  // Insertion order is expiry order (one TTL for all), so expired and surplus entries are both at the front.
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The value, once: it is forgotten as it is read. */
  take(key: string): V | undefined {
    const value = this.get(key);
    this.entries.delete(key);
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    const now = this.now();
    for (const [oldest, entry] of this.entries) {
      if (entry.expiresAt > now && this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Opening a sealed session cookie costs six WebCrypto operations (two PBKDF2 key derivations, an HMAC
 * check, an AES decryption), about a fifth of a data request's CPU time under load. A member's cookie
 * stays the same from one request to the next for minutes, so what it opened to is remembered, keyed by
 * a hash of the exact cookie values and the secrets that may open them: the same bytes under the same
 * secrets open to the same data. Only cookies that opened are remembered (a forged one never is), and the
 * session's lifetimes and "ended" mark are still checked on every request by the caller.
 */
export const OPENED_SEAL_TTL_MS = 5 * 60 * 1000;
export const OPENED_SEAL_MAX_ENTRIES = 5_000;

/** The memory key of a cookie's values (whole and chunks, as iron-session reads them) under a set of secrets. */
export function openedSealKey(secretsKey: string, cookieName: string, values: readonly (string | undefined)[]): string {
  return createHash("sha256")
    .update(`${secretsKey}\n${cookieName}\n${values.map((value) => value ?? "").join("\n")}`)
    .digest("base64url");
}
