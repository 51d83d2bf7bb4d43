/**
 * DPoP (RFC 9449) at the sandbox, behind the `dpop` knob (off by default): proof checking at the token
 * endpoint and at every protected resource (UserInfo, the Account API, MCP), DPoP-bound tokens, and,
 * with `dpopNonce`, a server nonce that changes every 30 seconds of sandbox time.
 *
 * A proof is refused for a wrong or missing key, a wrong `htm` or `htu`, an `iat` more than 60 seconds
 * off, a replayed `jti`, a missing or wrong `ath` on a resource call, and a missing or stale nonce.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import type { Context } from "hono";
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from "jose";
import { invalidTokenResponse, NO_STORE_HEADERS } from "./http-util";
import type { SandboxState } from "./state";
import type { AccessTokenRecord } from "./store";

/** How far a proof's `iat` may be from the sandbox clock (RFC 9449 section 11.1). */
export const DPOP_IAT_WINDOW_SECONDS = 60;
/** The server nonce changes this often (sandbox clock). */
export const DPOP_NONCE_PERIOD_MS = 30_000;

interface DpopMemory {
  nonceSecret: Buffer;
  /** jti → when it may be forgotten (after the iat window). */
  seenJtis: Map<string, number>;
}

const memories = new WeakMap<SandboxState, DpopMemory>();

function memoryOf(state: SandboxState): DpopMemory {
  let memory = memories.get(state);
  if (!memory) {
    memory = { nonceSecret: randomBytes(32), seenJtis: new Map() };
    memories.set(state, memory);
  }
  return memory;
}

/** The nonce the sandbox expects now (with the `dpopNonce` knob). */
export function currentDpopNonce(state: SandboxState): string {
  const period = Math.floor(state.now() / DPOP_NONCE_PERIOD_MS);
  return createHmac("sha256", memoryOf(state).nonceSecret).update(String(period)).digest("base64url");
}

export type ProofCheck = { ok: true; jkt: string } | { ok: false; error: "invalid_dpop_proof" | "use_dpop_nonce"; description: string };

function refused(description: string): ProofCheck {
  return { ok: false, error: "invalid_dpop_proof", description };
}

/**
 * Checks the request's DPoP proof (RFC 9449 section 4.3). `accessToken`: on a resource call, the token
 * whose hash `ath` must carry. Returns the key's thumbprint, or why the proof is refused.
 */
export async function checkDpopProof(c: Context, state: SandboxState, accessToken?: string): Promise<ProofCheck> {
  const headers = c.req.raw.headers;
  const proof = headers.get("dpop");
  if (proof === null) return refused("A DPoP proof is required");
  if (proof.includes(",") || proof.length > 4096) return refused("Exactly one DPoP proof is allowed");
  let payload: Record<string, unknown>;
  let jwk: Record<string, unknown> | undefined;
  try {
    const verified = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: ["ES256"] });
    payload = verified.payload;
    jwk = verified.protectedHeader.jwk;
  } catch {
    return refused("The DPoP proof's signature, type or algorithm is not valid");
  }
  if (!jwk || "d" in jwk) return refused("The DPoP proof must carry a public key");
  if (payload.htm !== c.req.method) return refused("htm does not match the request method");
  if (payload.htu !== `${state.issuer}${c.req.path}`) return refused("htu does not match the request URL");
  const now = Math.floor(state.now() / 1000);
  if (typeof payload.iat !== "number" || Math.abs(now - payload.iat) > DPOP_IAT_WINDOW_SECONDS) {
    return refused("iat is missing or too far from the current time");
  }
  if (typeof payload.jti !== "string" || payload.jti.length < 16 || payload.jti.length > 256) return refused("jti is missing");
  if (accessToken !== undefined) {
    const ath = createHash("sha256").update(accessToken).digest("base64url");
    if (payload.ath !== ath) return refused("ath does not match the access token");
  }
  if (state.knobs.dpopNonce && payload.nonce !== currentDpopNonce(state)) {
    return { ok: false, error: "use_dpop_nonce", description: "Use the DPoP nonce this server provides" };
  }
  // Only a proof that passed every other check spends its jti.
  const memory = memoryOf(state);
  for (const [jti, until] of memory.seenJtis) if (until < state.now()) memory.seenJtis.delete(jti);
  if (memory.seenJtis.has(payload.jti)) return refused("This DPoP proof was already used (jti replayed)");
  memory.seenJtis.set(payload.jti, state.now() + 2 * DPOP_IAT_WINDOW_SECONDS * 1000);
  return { ok: true, jkt: await calculateJwkThumbprint(jwk, "sha256") };
}

/** With the `dpopNonce` knob, every answer of a DPoP-checking endpoint names the current nonce. */
export function offerDpopNonce(c: Context, state: SandboxState): void {
  if (state.knobs.dpop !== "off" && state.knobs.dpopNonce) c.header("DPoP-Nonce", currentDpopNonce(state));
}

/** The token endpoint's refusal of a proof (RFC 9449 section 5): 400 with the JSON error. */
export function tokenEndpointProofRefusal(c: Context, state: SandboxState, check: Extract<ProofCheck, { ok: false }>): Response {
  offerDpopNonce(c, state);
  return c.json({ error: check.error, error_description: check.description }, 400, { ...NO_STORE_HEADERS });
}

export type ResourceAuth = { kind: "none" } | { kind: "refused"; response: Response } | { kind: "token"; record: AccessTokenRecord };

function dpopChallenge(c: Context, state: SandboxState, error: string, description: string): Response {
  offerDpopNonce(c, state);
  c.header("WWW-Authenticate", `DPoP error="${error}", error_description="${description.replace(/"/g, "'")}", algs="ES256"`);
  return c.json({ error, error_description: description }, 401, { ...NO_STORE_HEADERS });
}

/**
 * The access token of a protected resource request (RFC 6750 Bearer, or RFC 9449 section 7 DPoP): a
 * DPoP-bound token is accepted only with the DPoP scheme and a proof of its key, with `ath`; a Bearer
 * token only with the Bearer scheme. `refuseToken` answers a missing-scheme, unknown, expired or revoked
 * token (by default 401 with the Bearer challenge); the DPoP scheme's own refusals keep their challenge.
 */
export async function authenticateResourceRequest(
  c: Context,
  state: SandboxState,
  refuseToken: (c: Context, state: SandboxState, description: string) => Response = invalidTokenResponse,
): Promise<ResourceAuth> {
  const header = c.req.header("authorization");
  if (header === undefined) return { kind: "none" };
  const match = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  const scheme = match?.[1]?.toLowerCase();
  const token = match?.[2];
  if (!scheme || !token || (scheme === "dpop" && state.knobs.dpop === "off")) {
    return { kind: "refused", response: refuseToken(c, state, "The Authorization header is malformed") };
  }
  const checked = state.store.checkAccessToken(token, state.now());
  if (!checked.ok) return { kind: "refused", response: refuseToken(c, state, checked.reason) };
  const bound = checked.record.dpopJkt;
  if (bound === undefined) {
    if (scheme === "dpop")
      return { kind: "refused", response: dpopChallenge(c, state, "invalid_token", "This access token is not DPoP-bound") };
    return { kind: "token", record: checked.record };
  }
  if (scheme !== "dpop") {
    return { kind: "refused", response: dpopChallenge(c, state, "invalid_token", "This access token is DPoP-bound: use the DPoP scheme") };
  }
  const proof = await checkDpopProof(c, state, token);
  if (!proof.ok) return { kind: "refused", response: dpopChallenge(c, state, proof.error, proof.description) };
  if (proof.jkt !== bound) {
    return { kind: "refused", response: dpopChallenge(c, state, "invalid_token", "The DPoP proof is not signed by the token's key") };
  }
  offerDpopNonce(c, state);
  return { kind: "token", record: checked.record };
}
