import "server-only";

import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";

import { calculateJwkThumbprint, exportJWK, importJWK, SignJWT, type JWK } from "jose";
import * as oauth from "oauth4webapi";

import { getConfig } from "@/lib/config";
import { logEvent } from "@/lib/log/logger";
import { processWide } from "@/lib/server/process-wide";
import { getSharedState } from "@/lib/session/shared-state";

import { AuthError } from "./errors";

/**
 * DPoP (RFC 9449): sender-constrained tokens. When the site lists ES256 in
 * `dpop_signing_alg_values_supported` (and DPOP is not "off"), each member session gets its own key pair,
 * generated at sign-in; its private key lives only sealed (in the transaction cookie, then the session
 * cookie, and in the member's sealed entry of "Where you're signed in", to revoke that session's grant),
 * never in the clear in the browser, a log or the shared state. oauth4webapi's DPoP handle signs
 * the proofs (htm, htu, iat, jti, and ath on resource calls); this module keeps the site's nonces.
 */

/** The only proof algorithm the dashboard uses. */
export const DPOP_ALGORITHM = "ES256";

/** A member session's DPoP key: the private JWK (EC P-256, with `d`), only ever stored sealed. */
export type DpopKey = JWK;

/**
 * Whether this sign-in binds its tokens. DPOP=off: never; auto: when the site advertises ES256 proofs;
 * required: a site that does not is a configuration error (the sign-in refuses to start).
 */
export function shouldBindTokens(as: oauth.AuthorizationServer): boolean {
  const mode = getConfig().dpop;
  if (mode === "off") return false;
  const supported = as.dpop_signing_alg_values_supported?.includes(DPOP_ALGORITHM) === true;
  if (!supported && mode === "required") {
    throw new AuthError("site_misconfigured", "DPOP=required, but the site does not advertise ES256 DPoP proofs.", {
      detail: "dpop_unsupported",
    });
  }
  return supported;
}

/** A fresh key pair for one member session (RFC 9449 section 2: the client's own key, not shared). */
export async function newDpopKey(): Promise<DpopKey> {
  const pair = await oauth.generateKeyPair(DPOP_ALGORITHM, { extractable: true });
  return exportJWK(pair.privateKey);
}

const NONCE_TTL_MS = 5 * 60_000;
const MAX_REMEMBERED_ORIGINS = 100;
/**
 * The site's latest nonces, per origin (RFC 9449 section 8): one map per process, so that a nonce a data
 * route heard is the one the proxy's refresh proves with next; in the shared state for other instances.
 */
const nonces = processWide("dpop-nonces", () => new Map<string, string>());

function nonceKey(origin: string): string {
  return `dpop-nonce:${origin}`;
}

function rememberNonce(origin: string, nonce: string): void {
  // A nonce is an opaque token from the site: only printable ASCII of a sane length is kept.
  if (!/^[\x21-\x7e]{1,256}$/.test(nonce) || nonces.get(origin) === nonce) return;
  nonces.delete(origin);
  if (nonces.size >= MAX_REMEMBERED_ORIGINS) nonces.delete(nonces.keys().next().value!);
  nonces.set(origin, nonce);
  // Shared so that another instance's first proof carries it; best effort (the retry still recovers).
  getSharedState()
    .remember(nonceKey(origin), nonce, NONCE_TTL_MS)
    .catch(() => logEvent("shared_state_error", { operation: "remember_dpop_nonce" }, "warn"));
}

async function latestNonce(origin: string): Promise<string | undefined> {
  const known = nonces.get(origin);
  if (known !== undefined) return known;
  const shared = await getSharedState()
    .recall(nonceKey(origin))
    .catch(() => undefined);
  if (shared !== undefined) nonces.set(origin, shared);
  return shared;
}

type RequestOptions = { [oauth.customFetch]?: (url: string, options: oauth.CustomFetchOptions<string, never>) => Promise<Response> };

/**
 * The options that make an oauth4webapi request carry a DPoP proof with `key`: the handle, seeded with the
 * latest nonce this dashboard knows for `url`'s origin, and a fetch that remembers every DPoP-Nonce the
 * site sends. Each call gets its own handle: nothing of a member's key outlives the request in memory.
 */
export async function dpopOptions<T extends object>(key: DpopKey, url: string | URL, options: T): Promise<T & { DPoP: oauth.DPoPHandle }> {
  const origin = new URL(url).origin;
  const seeded = await latestNonce(origin);
  const publicJwk: JWK = { kty: key.kty, crv: key.crv, x: key.x, y: key.y };
  const [privateKey, publicKey] = await Promise.all([
    importJWK(key, DPOP_ALGORITHM, { extractable: false }),
    importJWK(publicJwk, DPOP_ALGORITHM, { extractable: true }),
  ]);
  const handle = oauth.DPoP(
    {},
    { privateKey: privateKey as CryptoKey, publicKey: publicKey as CryptoKey },
    {
      [oauth.modifyAssertion]: (_header, payload) => {
        // The handle's own nonce (learned in this request) wins; otherwise the latest one any instance saw.
        if (payload.nonce === undefined && seeded !== undefined) payload.nonce = seeded;
      },
    },
  );
  return { ...rememberingDpopNonces(options), DPoP: handle };
}

/** `options` with a fetch that remembers every DPoP-Nonce the site sends (RFC 9449 section 8), for this instance and the others. */
export function rememberingDpopNonces<T extends object>(options: T): T {
  const inner = (options as RequestOptions)[oauth.customFetch];
  const observing = async (target: string, init: oauth.CustomFetchOptions<string, never>) => {
    const response = await (inner ? inner(target, init) : fetch(target, init));
    const nonce = response.headers.get("dpop-nonce");
    if (nonce) rememberNonce(new URL(target).origin, nonce);
    return response;
  };
  return { ...options, [oauth.customFetch]: observing };
}

/**
 * A DPoP proof (RFC 9449 section 4.2) for a request oauth4webapi takes no DPoP handle for (revocation,
 * RFC 7009): signed by jose with the session's key, `htm` and `htu` of the request (no query, no fragment,
 * section 4.3), a fresh `jti`, `iat` now, and the latest nonce any instance saw for that origin. No `ath`:
 * the request carries no access token as a credential.
 */
export async function dpopProof(key: DpopKey, method: string, url: string | URL): Promise<string> {
  const target = new URL(url);
  const nonce = await latestNonce(target.origin);
  const publicJwk: JWK = { kty: key.kty, crv: key.crv, x: key.x, y: key.y };
  const privateKey = await importJWK(key, DPOP_ALGORITHM, { extractable: false });
  return new SignJWT({ htm: method, htu: `${target.origin}${target.pathname}`, ...(nonce === undefined ? {} : { nonce }) })
    .setProtectedHeader({ alg: DPOP_ALGORITHM, typ: "dpop+jwt", jwk: publicJwk })
    .setJti(randomBytes(32).toString("base64url"))
    .setIssuedAt()
    .sign(privateKey);
}

/** The JWK thumbprint of the key (RFC 7638), for `dpop_jkt` (RFC 9449 section 10). */
export async function dpopThumbprint(key: DpopKey): Promise<string> {
  const publicJwk: JWK = { kty: key.kty, crv: key.crv, x: key.x, y: key.y };
  return calculateJwkThumbprint(publicJwk, "sha256");
}

/**
 * RFC 9449 section 8 and 9: a site that wants a fresh nonce answers `use_dpop_nonce` with a DPoP-Nonce
 * header; the request is sent once more (its proof then carries the nonce the handle just learned).
 * Exactly one retry: a site that asks again gets its error, never a loop.
 */
export async function retryOnceOnDpopNonce<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!oauth.isDPoPNonceError(error)) throw error;
    return send();
  }
}

/**
 * The same rule for calls whose answer is read later (token endpoint, PAR, UserInfo): when the answer is
 * `use_dpop_nonce` (a JSON error or a DPoP challenge), `send` runs once more, and its answer is final.
 */
export async function sendOnceMoreOnDpopNonce(send: () => Promise<Response>): Promise<Response> {
  const first = await send();
  if (!(await asksForDpopNonce(first))) return first;
  await first.body?.cancel().catch(() => undefined);
  return send();
}

async function asksForDpopNonce(response: Response): Promise<boolean> {
  if (response.status !== 400 && response.status !== 401) return false;
  if (/^\s*dpop\b[^]*\berror="?use_dpop_nonce"?/i.test(response.headers.get("www-authenticate") ?? "")) return true;
  try {
    const body = (await response.clone().json()) as { error?: unknown };
    return body.error === "use_dpop_nonce";
  } catch {
    return false;
  }
}

/** The DPoP binding of the member session whose request is running: its key, when its tokens are DPoP-bound. */
export interface MemberBinding {
  dpopKey?: DpopKey;
  tokenType?: "DPoP";
}

const bindingStore = new AsyncLocalStorage<MemberBinding>();

/** Runs `work` (resource calls for one member) with that member's DPoP binding. */
export function withMemberBinding<T>(binding: MemberBinding, work: () => Promise<T>): Promise<T> {
  return bindingStore.run(binding, work);
}

/**
 * The options of a resource call (Account API, MCP) for the member whose request is running: with a DPoP
 * proof (and `ath`) when the member's token is DPoP-bound, exactly the given options otherwise.
 */
export async function resourceRequestOptions<T extends object>(url: string | URL, options: T): Promise<T> {
  const binding = bindingStore.getStore();
  if (binding?.tokenType !== "DPoP" || !binding.dpopKey) return options;
  return dpopOptions(binding.dpopKey, url, options);
}
