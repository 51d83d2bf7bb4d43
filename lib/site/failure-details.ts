import "server-only";

import { ClientError } from "graphql-request";
import * as oauth from "oauth4webapi";

import { truncateForLog } from "@/lib/log/logger";

/** What an operator needs about a failed call to the site; every value is short and never a token. */
export interface SiteFailureDetails {
  /** The site's path (`/api/oauth/token`), or `graphql <OperationName>` for the Account API. */
  endpoint?: string;
  siteStatus?: number;
  /** The site's own error code (OAuth `error`, GraphQL `extensions.code`) or the network error's code. */
  siteErrorCode?: string;
  siteErrorMessage?: string;
}

const OPERATION_NAME = /\b(?:query|mutation|subscription)\s+([A-Za-z_]\w*)/;

/**
 * A run of 24 or more characters of the alphabets tokens, codes and verifiers are written in (base64,
 * base64url, JWTs' dots): no word of a sentence is that long, and every credential is.
 */
const TOKEN_LIKE = /[\w~+/=.-]{24,}/g;

/**
 * Text the site wrote (an OAuth `error_description`, a GraphQL message), shortened for a log line. A site
 * may echo what it was sent ("the refresh token srt_… was revoked"): whatever reads as a credential is
 * replaced, so no token or code reaches the log through the site's words (OWASP ASVS 5 V16.2.5).
 */
function siteText(value: string | undefined, max?: number): string | undefined {
  return truncateForLog(value?.replace(TOKEN_LIKE, "[redacted]"), max);
}

function pathOf(response: Response | undefined): string | undefined {
  if (!response?.url) return undefined;
  try {
    // The path only: a query string could carry something personal.
    return new URL(response.url).pathname;
  } catch {
    return undefined;
  }
}

function describeOne(error: unknown): SiteFailureDetails | undefined {
  if (error instanceof ClientError) {
    const query = Array.isArray(error.request.query) ? error.request.query[0] : error.request.query;
    const first = error.response.errors?.[0];
    const extensionCode = (first?.extensions as { code?: unknown } | undefined)?.code;
    return {
      endpoint: `graphql ${OPERATION_NAME.exec(query ?? "")?.[1] ?? "(anonymous)"}`,
      siteStatus: error.response.status,
      siteErrorCode: typeof extensionCode === "string" ? siteText(extensionCode, 64) : undefined,
      siteErrorMessage: siteText(first?.message),
    };
  }
  if (error instanceof oauth.ResponseBodyError) {
    return {
      endpoint: pathOf(error.response),
      siteStatus: error.status,
      siteErrorCode: siteText(error.error, 64),
      siteErrorMessage: siteText(error.error_description),
    };
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const challenge = error.cause.find((entry) => entry.scheme === "bearer") ?? error.cause[0];
    return {
      endpoint: pathOf(error.response),
      siteStatus: error.status,
      siteErrorCode: siteText(challenge?.parameters.error, 64),
      siteErrorMessage: siteText(challenge?.parameters.error_description),
    };
  }
  if (error instanceof Response) return { endpoint: pathOf(error), siteStatus: error.status };
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return { siteErrorCode: "timeout", siteErrorMessage: truncateForLog(error.message) };
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && typeof code === "string" && /^E[A-Z_]+$/.test(code)) {
    // A network failure (ECONNREFUSED, ENOTFOUND, ECONNRESET).
    return { siteErrorCode: code, siteErrorMessage: truncateForLog(error.message) };
  }
  return undefined;
}

/**
 * Walks an error's cause chain (our own error of any layer, then the library's error, then the network's) and
 * gathers what the site said: the first endpoint, status, code and message found, in that order. When
 * nothing in the chain is the site's answer, the innermost error's message says what went wrong instead
 * (`fetch failed` → `bad port`, a TLS failure).
 */
export function siteFailureDetails(error: unknown): SiteFailureDetails {
  const details: SiteFailureDetails = {};
  let current: unknown = error;
  let innermost: Error | undefined;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const found = describeOne(current);
    if (found) {
      for (const [key, value] of Object.entries(found) as [keyof SiteFailureDetails, never][]) {
        if (value !== undefined && details[key] === undefined) details[key] = value;
      }
    }
    if (current instanceof Error) innermost = current;
    current = current instanceof Error ? current.cause : undefined;
  }
  if (details.siteErrorMessage === undefined && innermost !== undefined && innermost !== error) {
    details.siteErrorMessage = truncateForLog(innermost.message);
  }
  return details;
}
