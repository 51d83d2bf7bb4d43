import "server-only";

import { ClientError } from "graphql-request";
import * as oauth from "oauth4webapi";

import { LONGEST_WAIT_SECONDS } from "@/lib/contract/paths";

/**
 * The `detail` of an error by which the site said it is busy: it limits how often it answers (429, RFC 6585
 * section 4, or a GraphQL error saying so). lib/http/error-responses.ts tells the member to wait, for as
 * long as the site asked when it said (`Retry-After`).
 */
export const SITE_BUSY = "site_busy";

const DELTA_SECONDS = /^\d{1,10}$/;

/**
 * The wait a `Retry-After` value asks for, in whole seconds (RFC 9110 section 10.2.3: delta-seconds or an
 * HTTP-date), or undefined for no value, one of neither form, a moment already past, or more than a day.
 */
export function retryAfterSeconds(value: string | null | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const seconds = DELTA_SECONDS.test(text) ? Number(text) : Math.ceil((Date.parse(text) - nowMs) / 1000);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > LONGEST_WAIT_SECONDS) return undefined;
  return seconds;
}

/** The headers of the site's answer an error carries: graphql-request's and oauth4webapi's keep the Response's. */
function headersOf(error: unknown): Headers | undefined {
  if (error instanceof ClientError) return error.response.headers;
  if (error instanceof oauth.ResponseBodyError) return error.response.headers;
  if (error instanceof Response) return error.headers;
  return undefined;
}

/**
 * The wait the site asked for in the answer behind an error (our own error of any layer, then the
 * library's, then the Response), if it named one we can repeat.
 */
export function siteRetryAfterSeconds(error: unknown, nowMs: number = Date.now()): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const headers = headersOf(current);
    if (headers) return retryAfterSeconds(headers.get("retry-after"), nowMs);
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}
