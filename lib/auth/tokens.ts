import "server-only";

import * as oauth from "oauth4webapi";
import { createHash } from "node:crypto";

import { getConfig } from "@/lib/config";
import { logEvent } from "@/lib/log/logger";
import { processWide } from "@/lib/server/process-wide";
import { countedRefresh, markJoinedRefresh, timeRefreshLockWait } from "@/lib/metrics/record";
import { openSessionSeal, sealWithSessionSecret } from "@/lib/session/seal";
import type { SessionData } from "@/lib/session/session";
import {
  getSharedState,
  isSharedStateUnavailable,
  sleep,
  type Durability,
  type Lease,
  type LockOutcome,
  type SharedStateStore,
} from "@/lib/session/shared-state";
import { siteFailureDetails } from "@/lib/site/failure-details";
import {
  errorNamedWith200,
  isBearerTokenResponse,
  isTransientSiteFailure,
  oauthClient,
  tokenEndpointRefusal,
  tokenRequestOptions,
} from "@/lib/site/oauth-http";
import { SITE_BUSY } from "@/lib/contract/errors";
import { isThrottledAnswer } from "@/lib/site/site-busy";
import { SITE_CALL_TIMEOUT_MS } from "@/lib/site/site-deadline";

import { getSiteMetadata } from "./discovery";
import { dpopOptions, sendOnceMoreOnDpopNonce, type DpopKey } from "./dpop";
import { AuthError, safeOAuthErrorCode } from "./errors";
import { grantedScopesOf } from "./granted-scopes";
import { verifyIdToken } from "./id-token";
import { accessTokenTimes, REFRESH_MARGIN_MS } from "./token-times";

/**
 * When these tokens are due for renewal, and never later than their expiry; tokens sealed before
 * `accessTokenRenewAt` was kept (an older instance's cookie or rotation record) have the margin alone.
 */
function renewalTimeOf(tokens: Pick<RotatedTokens, "accessTokenExpiresAt" | "accessTokenRenewAt">): number {
  return Math.min(tokens.accessTokenRenewAt ?? tokens.accessTokenExpiresAt - REFRESH_MARGIN_MS, tokens.accessTokenExpiresAt);
}

/**
 * How long "refresh token R was just rotated into R'" is remembered: long enough for requests that left
 * the browser with the pre-rotation cookie to find the new tokens instead of replaying R (which a
 * rotating site answers with invalid_grant and a revoked grant, docs/architecture.md section 6.5).
 */
export const ROTATION_MEMORY_MS = 2 * 60_000;
export interface RotatedTokens {
  accessToken: string;
  refreshToken: string | null;
  accessTokenExpiresAt: number;
  /** Epoch milliseconds: when the access token is due for renewal (accessTokenRenewalTime). */
  accessTokenRenewAt?: number;
  scopes: string[];
  /** "DPoP" when the renewed access token is DPoP-bound (RFC 9449); undefined for Bearer. */
  tokenType: "DPoP" | undefined;
}

function fingerprint(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/**
 * The refresh lock's lease: longer than a whole refresh (the metadata fetch and the token request, each
 * bounded by SITE_CALL_TIMEOUT_MS) with margin, so it never frees itself while its holder still works.
 */
export const REFRESH_LEASE_MS = 2 * SITE_CALL_TIMEOUT_MS + 4_000;
/** A holder sends the grant only with this much lease left: the token request and a margin. */
const GRANT_LEASE_BUDGET_MS = SITE_CALL_TIMEOUT_MS + 2_000;

/** Who the session's sign-in said the member is: a refreshed id_token must say the same (OpenID Connect Core 12.2). */
interface SignedInAs {
  subject: string;
  idTokenNonce?: string;
  /** The session's DPoP key (RFC 9449): every refresh proves possession of it. */
  dpopKey?: DpopKey | undefined;
}

async function refreshAtSite(refreshToken: string, previousScopes: string[], signedInAs: SignedInAs, lease: Lease): Promise<RotatedTokens> {
  const config = getConfig();
  const { as } = await getSiteMetadata();
  const { client, auth } = oauthClient();
  if (lease.remainingMs() < GRANT_LEASE_BUDGET_MS) {
    // Past its lease another instance may hold the lock and spend the same refresh token: never both.
    throw new AuthError("refresh_unavailable", "The refresh lock's lease ran out before the grant was sent.");
  }
  let tokens: oauth.TokenEndpointResponse;
  try {
    const options = {
      // RFC 8707 section 2.2: the refreshed token stays bound to the site.
      additionalParameters: { resource: config.siteUrl },
      ...tokenRequestOptions(),
    };
    // RFC 9449 section 5: a DPoP session proves possession of its key on every refresh (one retry for a nonce).
    const requestOptions = signedInAs.dpopKey ? await dpopOptions(signedInAs.dpopKey, as.token_endpoint!, options) : options;
    const response = await sendOnceMoreOnDpopNonce(() => oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, requestOptions));
    tokens = await oauth.processRefreshTokenResponse(as, client, response);
  } catch (error) {
    logEvent("refresh_failed", { ...siteFailureDetails(error) }, "warn");
    if (oauth.isDPoPNonceError(error)) {
      // A second use_dpop_nonce after the one retry: the site's nonce keeps changing; try again later (never a loop).
      throw new AuthError("refresh_unavailable", "The site asked for a fresh DPoP nonce again.", {
        cause: error,
        detail: "use_dpop_nonce",
      });
    }
    if (error instanceof oauth.ResponseBodyError && error.error === "invalid_dpop_proof") {
      // The site refuses this session's proofs: no renewal can succeed, but access was not withdrawn.
      throw new AuthError("session_ended", "The site refused the session's DPoP proof.", { cause: error, detail: "invalid_dpop_proof" });
    }
    const status = tokenEndpointStatusOf(error);
    // An error a provider names in a 200 answer (GitHub's OAuth apps' manner) refuses as it would with 400.
    if (status === 400 || status === 401 || errorNamedWith200(error) === "invalid_grant") {
      // RFC 6749 section 5.2: the token endpoint refused the grant (revoked, expired, a replayed rotation,
      // the member withdrew the app's access). Providers differ in the body (a JSON error, an empty body,
      // HTML, a challenge): the status alone says the grant is gone, and the member is told so.
      throw new AuthError("session_ended", "The site no longer accepts this sign-in: access was withdrawn.", {
        cause: error,
        detail: ACCESS_WITHDRAWN,
      });
    }
    const refusal = tokenEndpointRefusal(error);
    if (refusal !== undefined) {
      // Another 4xx with an OAuth error body refusing something: the grant is not usable either. (One that
      // says the site is busy or failing, 429 or server_error, stays temporary below: the grant is unspent.)
      throw new AuthError("session_ended", "The site no longer accepts this sign-in.", {
        cause: error,
        detail: safeOAuthErrorCode(refusal),
      });
    }
    if (error instanceof oauth.OperationProcessingError && error.code === oauth.JWT_CLAIM_COMPARISON) {
      // OpenID Connect Core 12.2: the refreshed id_token's iss or aud is not the session's (oauth4webapi compared them).
      const claim = (error.cause as { claim?: unknown } | undefined)?.claim;
      throw new AuthError("session_ended", "The site's renewed id_token does not match this session.", {
        cause: error,
        detail: typeof claim === "string" ? claim : "id_token",
      });
    }
    if (isTransientSiteFailure(error)) {
      // RFC 6585 section 4: 429 (or a 403 with a wait) says the site limits how often it answers; the member is told to wait (SITE_BUSY).
      const busy = isThrottledAnswer(error) ? { detail: SITE_BUSY } : {};
      throw new AuthError("refresh_unavailable", "The site could not renew access right now.", { cause: error, ...busy });
    }
    throw new AuthError("session_ended", "The site's renewal answer was not acceptable.", { cause: error });
  }
  // RFC 9449 section 5: a DPoP-bound token only for a session that holds a key.
  const dpopBound = tokens.token_type.toLowerCase() === "dpop" && signedInAs.dpopKey !== undefined;
  if (!isBearerTokenResponse(tokens) && !dpopBound) {
    throw new AuthError("session_ended", "The site renewed access with a token type the dashboard does not use.", { detail: "token_type" });
  }
  if (tokens.id_token !== undefined) await checkRefreshedIdToken(tokens, as, signedInAs);
  logEvent("token_refreshed", { refreshTokenRotated: tokens.refresh_token !== undefined });
  return {
    accessToken: tokens.access_token,
    // RFC 9700 section 4.14.2: a rotating site returns a new refresh token; keep the old one only if it did not.
    refreshToken: tokens.refresh_token ?? refreshToken,
    ...accessTokenTimes(tokens.expires_in),
    scopes: tokens.scope ? grantedScopesOf(tokens.scope, previousScopes) : previousScopes,
    tokenType: dpopBound ? "DPoP" : undefined,
  };
}

/** `detail` of a session ended because the token endpoint refused the refresh with 400 or 401. */
export const ACCESS_WITHDRAWN = "access_withdrawn";

/** The HTTP status of the token endpoint's answer behind a failed refresh, whatever its body was; undefined when none came. */
function tokenEndpointStatusOf(error: unknown): number | undefined {
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.WWWAuthenticateChallengeError) return error.status;
  if (error instanceof oauth.OperationProcessingError && error.cause instanceof Response) return error.cause.status;
  return undefined;
}

/**
 * OpenID Connect Core 12.2: an id_token in a refresh answer must have the same `iss`, `sub` and `aud`
 * as the session's, and is verified like the sign-in's (signature, `azp`, lifetimes). Otherwise the
 * new tokens are refused and the session ends. So it does when the site cannot serve its key set at that
 * moment (detail `jwks`): the refresh token is spent by then, and sending it again would look like a
 * stolen token replayed to a rotating site (RFC 9700 section 4.14.2).
 */
async function checkRefreshedIdToken(
  tokens: oauth.TokenEndpointResponse,
  as: oauth.AuthorizationServer,
  signedInAs: SignedInAs,
): Promise<void> {
  const { clientId } = getConfig();
  try {
    if (!as.jwks_uri)
      throw new AuthError("id_token_invalid", "The site sent an id_token but lists no keys to verify it.", { detail: "jwks_uri" });
    await verifyIdToken(tokens.id_token!, {
      issuer: as.issuer,
      clientId,
      jwksUri: as.jwks_uri,
      subject: signedInAs.subject,
      originalNonce: signedInAs.idTokenNonce,
    });
  } catch (error) {
    const detail = error instanceof AuthError ? error.detail : undefined;
    throw new AuthError("session_ended", "The site's renewed id_token does not match this session.", { cause: error, detail });
  }
}

/**
 * After a refused refresh (invalid_grant), how long to look for the tokens another instance got for the same
 * refresh token: it publishes them as soon as the site answers it, so they appear within a round trip.
 */
export const ROTATION_SETTLE_MS = 1_000;
/** A rotation the shared state could not take (Redis down, a failover) is offered to it again this often. */
const REPUBLISH_INTERVAL_MS = 200;
/**
 * How long at most a holder of a lock no replica acknowledged waits for another instance's offer before it
 * refreshes. It stops as soon as every instance of the former primary has reached this one (each offers what
 * it holds first), so the bound is paid only while one of them is slow to come or gone.
 */
const UNREPLICATED_LOCK_SETTLE_MS = (REPUBLISH_INTERVAL_MS * 5) / 2;
/** How often the holder of such a lock looks for the offer and for the other instances' arrival. */
const SETTLE_POLL_MS = 25;

/**
 * Rotations this process got from the site that a failover may take from the shared state, by the fingerprint
 * of the refresh token they replaced, for as long as the record would live: those the shared state did not
 * take (it went down mid-refresh), offered again in the background until it does, and those no replica
 * acknowledged (at once, or when it took them late), offered again on the next primary this instance
 * reaches. A request here still carrying the pre-rotation cookie takes these tokens: the promoted replica
 * may have neither the refresh lock nor the record, and refreshing again would replay a spent refresh token,
 * which a rotating site answers by revoking the whole grant (RFC 9700 section 4.14.2).
 */
const unconfirmedByStore = processWide("unconfirmed-rotations", () => new WeakMap<SharedStateStore, Map<string, UnconfirmedRotation>>());

interface UnconfirmedRotation {
  rotated: RotatedTokens;
  sealed: string;
  until: number;
}

/** The rotations kept for `store`; the first call also has them offered on every new primary it reaches. */
function unconfirmedRotationsOf(store: SharedStateStore): Map<string, UnconfirmedRotation> {
  let kept = unconfirmedByStore.get(store);
  if (!kept) {
    const rotations = new Map<string, UnconfirmedRotation>();
    unconfirmedByStore.set(store, (kept = rotations));
    store.onPrimaryReached?.(() => offerUnconfirmedRotations(store, rotations));
  }
  return kept;
}

/**
 * Refreshes once per refresh token, whatever the number of parallel callers on however many instances
 * (RFC 9700 section 4.14.2: a rotated refresh token replayed makes the site revoke the whole grant).
 * In this process, parallel callers share one run; across instances, a lock in the shared store elects
 * one holder, which publishes the rotated tokens in the rotation memory before it releases the lock;
 * the others wait for the release and read them. Callers still holding the pre-rotation cookie find them
 * there too, for two minutes. Without the shared store there is no refresh at all (fail closed).
 *
 * The lock is not trusted alone (docs/architecture.md section 8: a failover, a pause or an expired lease
 * can give it to two holders). The rotation record, keyed by the hash of the refresh token it was made
 * from, is written once, by compare-and-set (`publishOnce`): a holder that finds a record already there
 * lost the race and uses the tokens in it. A holder whose refresh the site refuses with invalid_grant
 * looks for such a record (and the newer ones it leads to) before it ends anything.
 *
 * `refused`: the access token the site just refused (a forced renewal). At a site that keeps its refresh
 * tokens, the record of the renewal that gave it is no answer (recallRotation), and this renewal replaces it.
 */
async function rotate(refreshToken: string, scopes: string[], signedInAs: SignedInAs, refused?: string): Promise<RotatedTokens> {
  const store = getSharedState();
  const key = fingerprint(refreshToken);
  const recall = () => recallRotation(refreshToken, refused);
  const refreshOnce = countedRefresh(async () => {
    // Twice at most: a holder that failed (site down) published nothing, and the lock is free again.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const published = await recall();
      if (published) return published;
      const lockOptions = {
        leaseMs: REFRESH_LEASE_MS,
        waitMs: REFRESH_LEASE_MS,
        // A holder that lost Redis mid-refresh publishes its tokens later and cannot release its lock: the record is enough.
        stopWaiting: async () => (await recall()) !== undefined,
      };
      const lockHeld = timeRefreshLockWait();
      const outcome = await store.withLock(`refresh:${key}`, lockOptions, async (lease) => {
        lockHeld();
        const meanwhile = await recall();
        if (meanwhile) return meanwhile;
        // No replica has this lock (a primary just promoted): another instance may hold a rotation of this very
        // token that the old primary took with it, and offers it again as soon as it reaches the new one.
        // Spending the token before that offer lands would replay it (RFC 9700 section 4.14.2).
        if (lease.unreplicated) {
          const offered = await rotationOfferedOnceOthersArrive(recall, UNREPLICATED_LOCK_SETTLE_MS);
          if (offered) return offered;
        }
        let rotated: RotatedTokens;
        try {
          rotated = await refreshAtSite(refreshToken, scopes, signedInAs, lease);
        } catch (error) {
          const newer = await newerTokensAfterRefusal(error, refreshToken);
          if (newer) return newer;
          throw error;
        }
        return publishRotation(refreshToken, rotated, refused);
      });
      if (outcome.acquired) return outcome.value;
    }
    const published = await recall();
    if (published) return published;
    throw new AuthError("refresh_unavailable", "Another request is renewing access right now.");
  });
  // A caller whose access token was refused shares no run with those that may adopt the renewal holding it.
  return store.singleFlight(refused === undefined ? `refresh:${key}` : `refresh:${key}:${fingerprint(refused)}`, refreshOnce);
}

/**
 * How long the record of a renewal is kept, for the callers that present the same refresh token to adopt.
 * A rotation: ROTATION_MEMORY_MS, since the spent token must never reach the site again (RFC 9700 section
 * 4.14.2). A site that kept the refresh token (RFC 6749 section 6: it need not issue a new one): half the
 * renewed access token's lifetime, at most ROTATION_MEMORY_MS. The next renewal of that same token is then
 * sent to the site, and an access token adopted from the record has at least half its life left, never one
 * about to lapse (with short lifetimes a renewal is due again before the two minutes are over).
 */
function renewalMemoryMs(presented: string, renewed: RotatedTokens): number {
  if (renewed.refreshToken !== presented) return ROTATION_MEMORY_MS;
  return Math.max(0, Math.min(ROTATION_MEMORY_MS, Math.floor((renewed.accessTokenExpiresAt - Date.now()) / 2)));
}

/**
 * Publishes the tokens `refreshToken` was rotated into, before the lock is released, by compare-and-set
 * and durably (acknowledged once a replica has it, with Sentinel). Sealed: a shared store must never hold
 * tokens in the clear. When a record is already there, another holder spent the same refresh token first
 * (a lost lock): its tokens are the ones every instance uses, these are dropped. When the shared state does
 * not answer, the grant is spent all the same: this caller keeps the new tokens, and the record is offered
 * again in the background until the shared state (a promoted replica) takes it, so that requests still
 * carrying the pre-rotation cookie find it instead of replaying a spent refresh token.
 */
async function publishRotation(refreshToken: string, rotated: RotatedTokens, refused: string | undefined): Promise<RotatedTokens> {
  const memoryMs = renewalMemoryMs(refreshToken, rotated);
  if (memoryMs <= 0) return rotated;
  const key = fingerprint(refreshToken);
  const store = getSharedState();
  const sealed = await sealWithSessionSecret(rotated, 0);
  try {
    const outcome = await store.publishOnce(`rotated:${key}`, sealed, memoryMs);
    if (!outcome.stored) {
      const earlier = await openSessionSeal<RotatedTokens>(outcome.value);
      if (!isRefusedRenewal(earlier, refreshToken, refused)) {
        logEvent("rotation_adopted", { reason: "lost_race" }, "warn");
        return earlier;
      }
      // The record of the renewal whose access token the site refused (a kept refresh token, so nothing is
      // spent twice): this renewal replaces it, for the callers that still present that token.
      unconfirmedRotationsOf(store).delete(key);
      await store.remember(`rotated:${key}`, sealed, memoryMs);
      return rotated;
    }
    // No replica has the record: a failover now would lose it (docs/architecture.md section 8).
    if (outcome.durability === "unreplicated") keepUnconfirmed(store, key, rotated, sealed, memoryMs);
    return rotated;
  } catch (error) {
    if (!isSharedStateUnavailable(error)) throw error;
    logEvent("shared_state_error", { operation: "publish_rotation", outcome: "retrying_in_background" }, "error");
    const deadline = keepUnconfirmed(store, key, rotated, sealed, memoryMs);
    void republishUntilTaken(key, sealed, deadline).then((durability) => {
      // Taken late, and by no replica: kept as one stored unreplicated at once is, for the next primary.
      if (durability !== "unreplicated") unconfirmedRotationsOf(store).delete(key);
    });
    return rotated;
  }
}

/** Keeps a rotation a failover may lose, until its record would have expired (`memoryMs`); returns that moment. */
function keepUnconfirmed(store: SharedStateStore, key: string, rotated: RotatedTokens, sealed: string, memoryMs: number): number {
  const kept = unconfirmedRotationsOf(store);
  const now = Date.now();
  // Each for as long as its own record lives (a kept refresh token's renewal less than a rotation).
  for (const [earlier, { until }] of kept) if (until <= now) kept.delete(earlier);
  const until = now + memoryMs;
  kept.delete(key);
  kept.set(key, { rotated, sealed, until });
  return until;
}

/** On a primary this instance just reached: every rotation it keeps, offered before it says it arrived. */
async function offerUnconfirmedRotations(store: SharedStateStore, kept: Map<string, UnconfirmedRotation>): Promise<void> {
  for (const [key, { sealed, until }] of kept) {
    const ttlMs = until - Date.now();
    if (ttlMs <= 0) kept.delete(key);
    else await store.publishOnce(`rotated:${key}`, sealed, ttlMs);
  }
}

/**
 * Offers a rotation record to the shared state until it answers (or the record would have expired). The
 * durability of the write that took it; undefined when none did, or a record was already there.
 */
async function republishUntilTaken(key: string, sealed: string, deadline: number): Promise<Durability | undefined> {
  while (Date.now() < deadline) {
    await sleep(REPUBLISH_INTERVAL_MS);
    try {
      const outcome = await getSharedState().publishOnce(`rotated:${key}`, sealed, Math.max(1, deadline - Date.now()));
      logEvent("shared_state_error", { operation: "publish_rotation", state: "published_late" }, "info");
      return outcome.stored ? outcome.durability : undefined;
    } catch (error) {
      if (!isSharedStateUnavailable(error)) return undefined;
    }
  }
  return undefined;
}

/**
 * The site refused `refreshToken` (400 or 401, invalid_grant or no body): when another instance already rotated it (a lost
 * lock), the shared record holds the tokens it got, and a session ends only when no newer tokens exist.
 * Looks for the record during ROTATION_SETTLE_MS and follows it to the newest tokens still remembered.
 */
async function newerTokensAfterRefusal(error: unknown, refreshToken: string): Promise<RotatedTokens | undefined> {
  // A refusal with 400 or 401 (detail access_withdrawn, whatever the body: invalid_grant or none) may be a lost race.
  const refused = error instanceof AuthError && error.code === "session_ended";
  if (!refused || (error.detail !== "invalid_grant" && error.detail !== ACCESS_WITHDRAWN)) return undefined;
  const deadline = Date.now() + ROTATION_SETTLE_MS;
  for (let attempt = 0; ; attempt += 1) {
    const successors = await rotatedSuccessors(refreshToken);
    const newest = successors.at(-1);
    // A renewal that kept the very refresh token the site refused holds no newer grant (a site that does not rotate).
    if (newest && newest.refreshToken !== refreshToken) {
      logEvent("rotation_adopted", { reason: "refresh_refused", steps: successors.length }, "warn");
      return newest;
    }
    if (Date.now() >= deadline) return undefined;
    await sleep(Math.min(100, 10 * 2 ** attempt));
  }
}

/**
 * The tokens `refreshToken` was rotated into, if another instance offers them: looked for until every instance
 * of the former primary has reached this one (each offers what it keeps first), for `withinMs` at most.
 */
async function rotationOfferedOnceOthersArrive(
  recall: () => Promise<RotatedTokens | undefined>,
  withinMs: number,
): Promise<RotatedTokens | undefined> {
  const store = getSharedState();
  const deadline = Date.now() + withinMs;
  for (;;) {
    const published = await recall();
    if (published || Date.now() >= deadline) return published;
    if (await store.othersReachedPrimary?.()) return recall();
    await sleep(SETTLE_POLL_MS);
  }
}

/**
 * The tokens a renewal of `refreshToken` gave, while remembered; never those of a renewal that kept the
 * refresh token and gave the access token the site has just `refused`: only a new renewal helps then.
 */
async function recallRotation(refreshToken: string, refused?: string): Promise<RotatedTokens | undefined> {
  const key = fingerprint(refreshToken);
  const store = getSharedState();
  const unconfirmed = unconfirmedRotationsOf(store).get(key);
  const recalled =
    unconfirmed && unconfirmed.until > Date.now()
      ? { ...unconfirmed.rotated }
      : await store.recall(`rotated:${key}`).then((remembered) => (remembered ? openSessionSeal<RotatedTokens>(remembered) : undefined));
  return recalled && !isRefusedRenewal(recalled, refreshToken, refused) ? markJoinedRefresh(recalled) : undefined;
}

/**
 * A renewal that kept `refreshToken` (a site that does not rotate) and gave the access token the site refused.
 * A rotation never is: its access token came with a refresh token never presented before it.
 */
function isRefusedRenewal(renewal: RotatedTokens, refreshToken: string, refused: string | undefined): boolean {
  return refused !== undefined && renewal.refreshToken === refreshToken && renewal.accessToken === refused;
}

/**
 * The tokens that replaced `refreshToken` in rotations still remembered (ROTATION_MEMORY_MS), oldest
 * first: what a cookie from before those rotations must revoke too, or the successors stay live.
 */
export async function rotatedSuccessors(refreshToken: string): Promise<RotatedTokens[]> {
  const successors: RotatedTokens[] = [];
  let current = refreshToken;
  // A few steps at most: each rotation needs a request, and the memory lasts two minutes.
  for (let step = 0; step < 5; step += 1) {
    // Without the shared state (sign-out while Redis is down) the session's own tokens are all there is.
    const next = await recallRotation(current).catch((error: unknown) => {
      if (isSharedStateUnavailable(error)) return undefined;
      throw error;
    });
    if (!next) break;
    successors.push(next);
    if (!next.refreshToken || next.refreshToken === current) break;
    current = next.refreshToken;
  }
  return successors;
}

/**
 * Runs `task` with the rotated successors of `refreshToken` once no refresh of the newest of them is in
 * flight on any instance: it waits for that refresh's lock and holds it while `task` runs (RFC 7009
 * section 2.1; RFC 9700 section 4.14.2). So a refresh racing a sign-out either finished first (its
 * successor is then revoked too) or starts after it, with a revoked token the site refuses. Without the
 * shared state, the successors known are all there is.
 */
export async function withRotationsSettled<T>(refreshToken: string, task: (successors: RotatedTokens[]) => Promise<T>): Promise<T> {
  const store = getSharedState();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const successors = await rotatedSuccessors(refreshToken);
    const newest = successors.reduce<string>((latest, next) => next.refreshToken ?? latest, refreshToken);
    let outcome: LockOutcome<{ value: T } | undefined>;
    try {
      outcome = await store.withLock(`refresh:${fingerprint(newest)}`, { leaseMs: REFRESH_LEASE_MS, waitMs: REFRESH_LEASE_MS }, async () =>
        // Rotated between the read and the lock: look again, one generation further.
        (await recallRotation(newest)) ? undefined : { value: await task(successors) },
      );
    } catch (error) {
      if (!isSharedStateUnavailable(error)) throw error;
      return task(successors);
    }
    if (outcome.acquired && outcome.value) return outcome.value.value;
  }
  return task(await rotatedSuccessors(refreshToken));
}

export interface FreshSession {
  session: SessionData;
  /** True when the tokens changed and the session cookie must be written back. */
  changed: boolean;
}

/**
 * The one function that returns a valid access token for a data request. It refreshes once the token is
 * due for renewal (accessTokenRenewalTime) or when `force` says the site just refused it, single-flight per
 * refresh token.
 */
export async function ensureFreshTokens(session: SessionData, options: { force?: boolean; now?: number } = {}): Promise<FreshSession> {
  const now = options.now ?? Date.now();
  if (!options.force && now < renewalTimeOf(session)) return { session, changed: false };
  if (!session.refreshToken) {
    if (!options.force && session.accessTokenExpiresAt > now) return { session, changed: false };
    throw new AuthError("session_ended", "The access token expired and the site gave no refresh token.");
  }
  const rotated = await rotate(
    session.refreshToken,
    session.scopes,
    { subject: session.claims.sub, idTokenNonce: session.idTokenNonce, dpopKey: session.dpopKey },
    options.force ? session.accessToken : undefined,
  );
  if (options.force && rotated.accessToken === session.accessToken) {
    throw new AuthError("session_ended", "The site refused an access token that was just issued.");
  }
  return { session: { ...session, ...rotated, accessTokenRenewAt: renewalTimeOf(rotated) }, changed: true };
}
