import "server-only";

import { LayerError } from "@/lib/errors/layer-error";
import { logEvent } from "@/lib/log/logger";

/**
 * The policy of every request to the site, whichever transport carries it: how many bytes of each kind
 * of answer are read, what a failure is called, and the one `site_error` log line it leaves.
 */

/** What an answer from the site is, which decides how many bytes of it we ever read and how it travels. */
export type SiteAnswerKind = "oauth" | "jwks" | "graphql" | "mcp";

const KIB = 1024;

/**
 * The most bytes read from one answer of each kind. OAuth answers (metadata, token, UserInfo,
 * revocation) and key sets are a few KiB; a GraphQL page of 50 enrollments is about 30 KiB; an MCP tool
 * list of 200 tools with 1,000-character descriptions about 250 KiB.
 */
export const SITE_ANSWER_BYTE_CAPS: Readonly<Record<SiteAnswerKind, number>> = {
  oauth: 64 * KIB,
  jwks: 64 * KIB,
  graphql: 2 * KIB * KIB,
  mcp: 1 * KIB * KIB,
};

/** Why a request to the site failed before an answer we could read. */
export type SiteFailureReason = "timeout" | "too_large" | "unreachable";

/**
 * A request to the site that failed before an answer we could read: its `code` says why (the layer
 * errors' shape, lib/errors/layer-error.ts), `kind` which kind of answer was awaited.
 */
export class SiteFetchError extends LayerError<SiteFailureReason> {
  override readonly name = "SiteFetchError";
  constructor(
    code: SiteFailureReason,
    /** The kind of answer that failed, or "page_view" when the page view's whole budget ran out. */
    readonly kind: SiteAnswerKind | "page_view",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** The SiteFetchError behind an error (libraries wrap what a fetch threw in their own errors), if any. */
export function siteFailureOf(error: unknown): SiteFetchError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    if (current instanceof SiteFetchError) return current;
    current = current.cause;
  }
  return undefined;
}

export const SITE_TIMEOUT_MESSAGE = "The site did not answer in time.";

function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && (reason.name === "TimeoutError" || reason.name === "AbortError");
}

function logSiteError(kind: SiteAnswerKind, url: URL, reason: SiteFailureReason, extra: Record<string, unknown> = {}): void {
  // The path names the endpoint; a query string is never logged (it may carry a code or state).
  logEvent("site_error", { kind, endpoint: url.pathname, reason, ...extra }, "warn");
}

/** A plain error code (ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED...) only: never free text from the network in a log line. */
const NETWORK_ERROR_CODE = /^[A-Z][A-Z0-9_]{1,63}$/;

/**
 * The code of the network or TLS error behind a failed call (Node's on the error itself, fetch's on its
 * cause), so the operator reads why the site could not be reached: refused, not found, an untrusted
 * or mismatched certificate.
 */
function networkErrorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; depth < 3 && current instanceof Error; depth += 1, current = current.cause) {
    const { code } = current as { code?: unknown };
    if (typeof code === "string" && NETWORK_ERROR_CODE.test(code)) return code;
  }
  return undefined;
}

/**
 * What a call that failed before its answer was read is called, logged once: a timeout when its signal
 * timed out, else unreachable (with the network's error code), "broke off" once the answer had begun.
 */
export function failureOf(error: unknown, signal: AbortSignal, kind: SiteAnswerKind, url: URL, brokeOff: boolean): SiteFetchError {
  if (error instanceof SiteFetchError) return error;
  const reason: SiteFailureReason = signal.aborted && isTimeout(signal.reason) ? "timeout" : "unreachable";
  const code = reason === "unreachable" ? networkErrorCode(error) : undefined;
  logSiteError(kind, url, reason, code ? { networkError: code } : {});
  const message =
    reason === "timeout" ? SITE_TIMEOUT_MESSAGE : brokeOff ? "The site's answer broke off." : "The site could not be reached.";
  return new SiteFetchError(reason, kind, message, { cause: error });
}

/** An answer over the cap of its kind, logged once. */
export function tooLarge(kind: SiteAnswerKind, url: URL, extra: Record<string, unknown>): SiteFetchError {
  const cap = SITE_ANSWER_BYTE_CAPS[kind];
  logSiteError(kind, url, "too_large", { capBytes: cap, ...extra });
  return new SiteFetchError("too_large", kind, `The site's answer is larger than ${cap} bytes.`);
}

/** Statuses whose answer has no body (a Response refuses one). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);
