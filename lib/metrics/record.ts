import "server-only";

import { isAuthError } from "@/lib/auth/errors";
import { isSharedStateUnavailable } from "@/lib/session/errors";

import {
  refreshes,
  refreshLockWait,
  sessionsEnded,
  sharedStateErrors,
  signInsFailed,
  siteCallDuration,
  boundedLabel,
  type RefreshOutcome,
  type SessionEndReason,
} from "./registry";

/** What happens where no log event says it exactly; each is one call at the place it happens. */

export function countSignInFailed(code: string): void {
  signInsFailed.labels(boundedLabel(code)).inc();
}

export function countSessionEnded(reason: SessionEndReason): void {
  sessionsEnded.labels(reason).inc();
}

export function countSharedStateError(operation: string): void {
  sharedStateErrors.labels(boundedLabel(operation)).inc();
}

/** Tokens a refresh found published by another refresh (another instance's, or an earlier one here) rather than got from the site. */
const joinedTokens = new WeakSet<object>();

export function markJoinedRefresh<T extends object>(tokens: T): T {
  joinedTokens.add(tokens);
  return tokens;
}

export function refreshOutcomeOf(error: unknown): RefreshOutcome {
  if (isAuthError(error, "session_ended")) return "grant_gone";
  if (isSharedStateUnavailable(error)) return "shared_state_down";
  // With a cause, the site did not answer; without one, the lock stayed taken (or its lease ran out).
  if (isAuthError(error, "refresh_unavailable")) return error.cause === undefined ? "lock_timeout" : "site_unavailable";
  return "failed";
}

/** `task` (one refresh, shared by the parallel callers of this process), counted by its outcome. */
export function countedRefresh<T extends object>(task: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      const tokens = await task();
      refreshes.labels(joinedTokens.has(tokens) ? "joined" : "rotated").inc();
      return tokens;
    } catch (error) {
      refreshes.labels(refreshOutcomeOf(error)).inc();
      throw error;
    }
  };
}

/** Starts timing a wait for the refresh lock; call what it returns once the lock is held. */
export function timeRefreshLockWait(): () => void {
  const started = performance.now();
  return () => refreshLockWait.observe((performance.now() - started) / 1000);
}

/** Wraps a site call's `finished` (called when its answer was read, or it failed) to time the call by kind, once. */
export function timeSiteCall(kind: string, finished: () => void): () => void {
  const started = performance.now();
  let done = false;
  return () => {
    if (!done) {
      done = true;
      siteCallDuration.labels(boundedLabel(kind)).observe((performance.now() - started) / 1000);
    }
    finished();
  };
}
