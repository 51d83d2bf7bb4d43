/**
 * The site's id_token signing keys and how it rotates them. A real site changes its signing key now and then;
 * the ways it may do so are the modes of `rotateSigningKey` (control route `POST /__sandbox/rotate-signing-key`):
 *
 * - `graceful`: a new key signs from now on; the keys already published stay in the JWKS (newest first, at most
 *   MAX_PUBLISHED_KEYS), so id_tokens issued under them still verify;
 * - `abrupt`: a new key signs and is the only one published: the old key is dropped at once;
 * - `unpublished`: a site's mistake, a new key signs but the JWKS stays as it was, so nobody can verify it.
 *
 * Each rotation makes a new ES256 (P-256) key with a new `kid`.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { KeyObject } from "node:crypto";
import type { JWK } from "jose";

export const KEY_ROTATION_MODES = ["graceful", "abrupt", "unpublished"] as const;
export type KeyRotationMode = (typeof KEY_ROTATION_MODES)[number];

/** Keys a graceful rotation keeps published, the new one included. */
export const MAX_PUBLISHED_KEYS = 3;
/** Keys remembered as the site's own (for id_token_hint at sign-out), the signing one included. */
export const MAX_ISSUING_KEYS = 20;

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: JWK;
}

export interface SigningKeys {
  /** The key that signs id_tokens now. */
  signing: SigningKey;
  /** The keys the JWKS lists, newest first. */
  published: readonly SigningKey[];
  /**
   * Every key this site signed id_tokens with, newest first (the last MAX_ISSUING_KEYS): an id_token under any
   * of them is one the site issued, even when its key is no longer published.
   */
  issuing: readonly SigningKey[];
}

export interface KeyRotationResult {
  mode: KeyRotationMode;
  /** The new key's kid: it signs from now on. */
  kid: string;
  /** The kids the JWKS lists now, newest first. */
  publishedKids: string[];
}

export function createSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const kid = `sandbox-${randomBytes(6).toString("hex")}`;
  const { kty, crv, x, y } = publicKey.export({ format: "jwk" });
  return { kid, privateKey, publicKey, publicJwk: { kty, crv, x, y, kid, alg: "ES256", use: "sig" } };
}

export function initialSigningKeys(): SigningKeys {
  const key = createSigningKey();
  return { signing: key, published: [key], issuing: [key] };
}

/** The keys after a rotation in `mode` (see the module comment). */
export function rotatedSigningKeys(keys: SigningKeys, mode: KeyRotationMode, next: SigningKey = createSigningKey()): SigningKeys {
  const published =
    mode === "graceful" ? [next, ...keys.published].slice(0, MAX_PUBLISHED_KEYS) : mode === "abrupt" ? [next] : keys.published;
  return { signing: next, published, issuing: [next, ...keys.issuing].slice(0, MAX_ISSUING_KEYS) };
}

export function describeRotation(keys: SigningKeys, mode: KeyRotationMode): KeyRotationResult {
  return { mode, kid: keys.signing.kid, publishedKids: keys.published.map((key) => key.kid) };
}

export function isKeyRotationMode(value: unknown): value is KeyRotationMode {
  return typeof value === "string" && (KEY_ROTATION_MODES as readonly string[]).includes(value);
}
