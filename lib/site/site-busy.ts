import "server-only";

import { ClientError } from "graphql-request";
import * as oauth from "oauth4webapi";

import { LONGEST_WAIT_SECONDS } from "@/lib/contract/paths";

const DELTA_SECONDS = /^\d{1,10}$/;

/**
 * The wait a `Retry-After` value asks for, in whole seconds (RFC 9110 section 10.2.3: delta-seconds or an
 * HTTP-date), or undefined for no value, one of neither form, a moment already past, or more than a day.
 */
export function retryAfterSeconds(value: string | null | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  return repeatableWait(DELTA_SECONDS.test(text) ? Number(text) : Math.ceil((Date.parse(text) - nowMs) / 1000));
}

/** A wait worth repeating to the member: some seconds, up to a day; undefined for none, one past, or a longer one. */
function repeatableWait(seconds: number): number | undefined {
  return Number.isFinite(seconds) && seconds > 0 && seconds <= LONGEST_WAIT_SECONDS ? seconds : undefined;
}

/** The site's answer an error carries: graphql-request's and oauth4webapi's keep the Response's status and headers. */
function answerOf(error: unknown): { status: number; headers: Headers } | undefined {
  if (error instanceof ClientError) return error.response;
  if (error instanceof oauth.ResponseBodyError) return error.response;
  if (error instanceof Response) return error;
  return undefined;
}

/** The first answer of the site behind an error (our own error of any layer, then the library's, then the Response). */
function siteAnswerBehind(error: unknown): { status: number; headers: Headers } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const answer = answerOf(current);
    if (answer) return answer;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/**
 * True when the answer's rate-limit fields say none is left: GitHub's `x-ratelimit-remaining: 0` ("you will
 * receive a 403 or 429 response, and the x-ratelimit-remaining header will be 0"), or the IETF draft's
 * `ratelimit-remaining: 0` (draft-ietf-httpapi-ratelimit-headers).
 */
export function isRateLimitExhausted(headers: Headers): boolean {
  return headers.get("x-ratelimit-remaining")?.trim() === "0" || headers.get("ratelimit-remaining")?.trim() === "0";
}

/**
 * True when an answer says the site limits how often it answers: 429 Too Many Requests (RFC 6585 section 4),
 * or a 403 with `Retry-After` or a used-up rate limit (GitHub's secondary and primary rate limits).
 */
export function isThrottledStatus(status: number, headers: Headers): boolean {
  return status === 429 || (status === 403 && (headers.has("retry-after") || isRateLimitExhausted(headers)));
}

/** True when the site's answer behind an error says it limits how often it answers (isThrottledStatus), whatever its body. */
export function isThrottledAnswer(error: unknown): boolean {
  const answer = siteAnswerBehind(error);
  return answer !== undefined && isThrottledStatus(answer.status, answer.headers);
}

/** Seconds since the epoch from this on: GitHub's `x-ratelimit-reset` is one; a wait of seconds is far smaller. */
const EPOCH_SECONDS_FROM = 1_000_000_000;

/**
 * The wait an exhausted rate limit names when the answer has no `Retry-After`: the IETF draft's
 * `ratelimit-reset` (seconds from now), or `x-ratelimit-reset` (GitHub's, seconds since the epoch; seconds
 * from now at sites that write it so), under the same bounds as `Retry-After`.
 */
function rateLimitResetSeconds(headers: Headers, nowMs: number): number | undefined {
  if (!isRateLimitExhausted(headers)) return undefined;
  const reset = (headers.get("ratelimit-reset") ?? headers.get("x-ratelimit-reset"))?.trim();
  if (!reset || !DELTA_SECONDS.test(reset)) return undefined;
  const value = Number(reset);
  return repeatableWait(value >= EPOCH_SECONDS_FROM ? Math.ceil(value - nowMs / 1000) : value);
}

/**
 * The wait the site asked for in its answer behind an error, if it named one we can repeat: its `Retry-After`,
 * or else the reset of a rate limit it says is used up.
 */
export function siteRetryAfterSeconds(error: unknown, nowMs: number = Date.now()): number | undefined {
  const answer = siteAnswerBehind(error);
  if (!answer) return undefined;
  return retryAfterSeconds(answer.headers.get("retry-after"), nowMs) ?? rateLimitResetSeconds(answer.headers, nowMs);
}

/**
 * The wait a site that is down for a while named: `Retry-After` on a 503 Service Unavailable (RFC 9110
 * section 15.6.4, "down for maintenance, back in ten minutes"), if it named one we can repeat. A wait on
 * any other failing status is none (section 10.2.3 gives it to 503 and the redirects).
 */
export function unavailableForSeconds(error: unknown, nowMs: number = Date.now()): number | undefined {
  const answer = siteAnswerBehind(error);
  return answer?.status === 503 ? retryAfterSeconds(answer.headers.get("retry-after"), nowMs) : undefined;
}
