import "server-only";

import { sealData, unsealData } from "iron-session";
import { createHash } from "node:crypto";

import { getConfig, type AppConfig } from "@/lib/config";

/**
 * The one owner of the SESSION_SECRET passwords: the session cookie (lib/session/session.ts) and
 * everything else the dashboard seals (sign-in attempts, embedded handoffs, rotated tokens in the shared
 * state) use them through this module. A seal is made with the newest secret and opened with any
 * configured one, so SESSION_SECRET can rotate (a new secret in front, the old one dropped later).
 */
export interface SealPasswords {
  /** Every configured secret, by id: what opens a seal. */
  opening: Record<string, string>;
  /** The newest secret (SESSION_SECRET lists them newest first), by id: what seals. */
  sealing: Record<string, string>;
  /** Identifies the set of opening secrets (their ids), for the opened-seal memory. */
  openingKey: string;
}

/**
 * A secret's id inside a seal, derived from the secret itself so that it stays the same when the list
 * of SESSION_SECRET values changes (rotation adds a new one in front and later drops the old one).
 */
function secretId(secret: string): string {
  // iron-session wants integer ids: 32 bits of the secret's hash.
  return String(createHash("sha256").update(secret).digest().readUInt32BE(0));
}

// Hashing the secrets on every request cost a few per cent of a data request: once per configuration.
const passwordsByConfig = new WeakMap<AppConfig, SealPasswords>();

/** The passwords of the session cookie (lib/session only: elsewhere, seal and open through the functions below). */
export function sealPasswords(): SealPasswords {
  const config = getConfig();
  let known = passwordsByConfig.get(config);
  if (!known) {
    const opening = Object.fromEntries(config.sessionSecrets.map((secret) => [secretId(secret), secret]));
    const newest = config.sessionSecrets[0]!;
    known = { opening, sealing: { [secretId(newest)]: newest }, openingKey: Object.keys(opening).join(",") };
    passwordsByConfig.set(config, known);
  }
  return known;
}

/**
 * Seals `data` (encrypted and signed, iron-session's format) with the newest secret. The seal expires
 * after `ttlSeconds`; 0 means it never does (then whatever stores it bounds its life).
 */
export function sealWithSessionSecret(data: object, ttlSeconds: number): Promise<string> {
  return sealData(data, { password: sealPasswords().sealing, ttl: ttlSeconds });
}

/**
 * Opens a seal made by `sealWithSessionSecret` with any configured secret. A seal past the expiry sealed
 * into it, tampered with or sealed with another secret opens to an empty object: a caller that reads it
 * from the browser asks for a `Partial` and checks the fields. The expiry is the one written when it was
 * sealed, with a minute of clock skew allowed: iron-webcrypto's `unseal` reads no time to live of its own, so
 * none is passed here.
 */
export function openSessionSeal<T extends object>(sealed: string): Promise<T> {
  return unsealData<T>(sealed, { password: sealPasswords().opening });
}
