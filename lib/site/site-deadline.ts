import "server-only";

import { AsyncLocalStorage } from "node:async_hooks";

import { SITE_TIMEOUT_MESSAGE, SiteFetchError } from "./site-call-policy";

/**
 * Time bounds of the requests to the site: one timeout per call, and one deadline per page view or data
 * route for everything it asks (withSiteDeadline). lib/site/site-fetch.ts applies both to every call.
 */

/** The budget of one page view or data route for everything it asks the site, attempts included. */
export const PAGE_VIEW_DEADLINE_MS = 8_000;

/** The longest one request to the site may take, answer included, whoever sends it. */
export const SITE_CALL_TIMEOUT_MS = 8_000;

/**
 * A signal that aborts after `milliseconds` unless cleared first. Unlike AbortSignal.timeout, a call
 * that finished clears its timer: the timer would otherwise keep the call, its signal and the request
 * context it was created in alive for the whole timeout (docs/performance.md, Memory).
 */
export function clearableTimeout(milliseconds: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(SITE_TIMEOUT_MESSAGE, "TimeoutError")), milliseconds);
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** The page view's deadline: its signal, and when it passes (performance.now() milliseconds). */
interface SiteDeadline {
  signal: AbortSignal;
  endsAt: number;
}

const deadlineStore = new AsyncLocalStorage<SiteDeadline>();

/**
 * Runs `work` with one deadline for every request it sends to the site, retries and refreshes
 * included (a nested call keeps the outer, earlier deadline). When the deadline passes, every request
 * still running is aborted and `work` rejects with a `timeout` SiteFetchError even if something inside
 * ignores the abort: the page or route answers in bounded time.
 */
export async function withSiteDeadline<T>(milliseconds: number, work: () => Promise<T>): Promise<T> {
  const outer = deadlineStore.getStore();
  const own = clearableTimeout(milliseconds);
  const signal = outer ? AbortSignal.any([outer.signal, own.signal]) : own.signal;
  const endsAt = Math.min(outer?.endsAt ?? Infinity, performance.now() + milliseconds);
  let onAbort: (() => void) | undefined;
  const expired = new Promise<never>((_, reject) => {
    onAbort = () => reject(new SiteFetchError("timeout", "page_view", SITE_TIMEOUT_MESSAGE, { cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  expired.catch(() => undefined);
  try {
    return await Promise.race([deadlineStore.run({ signal, endsAt }, work), expired]);
  } finally {
    own.clear();
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

/** How long the page view's deadline leaves (milliseconds), or Infinity outside one. */
export function siteTimeLeftMs(): number {
  const deadline = deadlineStore.getStore();
  return deadline ? deadline.endsAt - performance.now() : Number.POSITIVE_INFINITY;
}

/**
 * Starts `work` outside any page view's deadline: for work one request starts on behalf of every member
 * (an answer kept per process), which must not be cut short by that one request's deadline. Its calls
 * keep their own timeout (boundOfCall).
 */
export function outsideSiteDeadline<T>(work: () => T): T {
  return deadlineStore.exit(work);
}

/** What bounds one call: its signal, and how it clears its own timer once its answer is read. */
export interface CallBound {
  signal: AbortSignal;
  finished: () => void;
}

const NOTHING_TO_CLEAR = (): void => undefined;

/**
 * The bound of one call: its own timeout (SITE_CALL_TIMEOUT_MS, left out when the page view's deadline
 * passes sooner: one timer per page view then, not one more per call), the page view's deadline, and
 * the caller's own signal.
 */
export function boundOfCall(callerSignal: AbortSignal | null | undefined): CallBound {
  const signals: AbortSignal[] = [];
  let finished = NOTHING_TO_CLEAR;
  const deadline = deadlineStore.getStore();
  if (deadline) signals.push(deadline.signal);
  if (!deadline || deadline.endsAt > performance.now() + SITE_CALL_TIMEOUT_MS) {
    const timeout = clearableTimeout(SITE_CALL_TIMEOUT_MS);
    signals.push(timeout.signal);
    finished = timeout.clear;
  }
  if (callerSignal) signals.push(callerSignal);
  return { signal: signals.length === 1 ? signals[0]! : AbortSignal.any(signals), finished };
}
