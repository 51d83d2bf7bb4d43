import "server-only";

import { AsyncLocalStorage } from "node:async_hooks";

import { logEvent } from "@/lib/log/logger";

/** What an answer from the site is, which decides how many bytes of it we ever read. */
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

/** The budget of one page view or data route for everything it asks the site, attempts included. */
export const PAGE_VIEW_DEADLINE_MS = 8_000;

/** Why a request to the site failed before an answer we could read. */
export type SiteFailureReason = "timeout" | "too_large" | "unreachable";

export class SiteFetchError extends Error {
  override readonly name = "SiteFetchError";
  constructor(
    readonly reason: SiteFailureReason,
    /** The kind of answer that failed, or "page_view" when the page view's whole budget ran out. */
    readonly kind: SiteAnswerKind | "page_view",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
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

const deadlineStore = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `work` with one deadline for every request it sends to the site, retries and refreshes
 * included (a nested call keeps the outer, earlier deadline). When the deadline passes, every request
 * still running is aborted and `work` rejects with a `timeout` SiteFetchError even if something inside
 * ignores the abort: the page or route answers in bounded time.
 */
export async function withSiteDeadline<T>(milliseconds: number, work: () => Promise<T>): Promise<T> {
  const outer = deadlineStore.getStore();
  const signal = outer ? AbortSignal.any([outer, AbortSignal.timeout(milliseconds)]) : AbortSignal.timeout(milliseconds);
  let onAbort: (() => void) | undefined;
  const expired = new Promise<never>((_, reject) => {
    onAbort = () => reject(new SiteFetchError("timeout", "page_view", "The site did not answer in time.", { cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  expired.catch(() => undefined);
  try {
    return await Promise.race([deadlineStore.run(signal, work), expired]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && (reason.name === "TimeoutError" || reason.name === "AbortError");
}

function logSiteError(kind: SiteAnswerKind, url: URL, reason: SiteFailureReason, extra: Record<string, unknown> = {}): void {
  // The path names the endpoint; a query string is never logged (it may carry a code or state).
  logEvent("site_error", { kind, endpoint: url.pathname, reason, ...extra }, "warn");
}

/** The body of `response`, cut off with a `too_large` error once more than `cap` bytes arrived. */
function cappedBody(body: ReadableStream<Uint8Array>, kind: SiteAnswerKind, url: URL, signal: AbortSignal): ReadableStream<Uint8Array> {
  const cap = SITE_ANSWER_BYTE_CAPS[kind];
  const reader = body.getReader();
  let received = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        const reason: SiteFailureReason = signal.aborted && isTimeout(signal.reason) ? "timeout" : "unreachable";
        logSiteError(kind, url, reason);
        controller.error(
          new SiteFetchError(reason, kind, reason === "timeout" ? "The site did not answer in time." : "The site's answer broke off.", {
            cause: error,
          }),
        );
        return;
      }
      if (chunk.done) {
        controller.close();
        return;
      }
      received += chunk.value.byteLength;
      if (received > cap) {
        await reader.cancel().catch(() => undefined);
        logSiteError(kind, url, "too_large", { capBytes: cap });
        controller.error(new SiteFetchError("too_large", kind, `The site's answer is larger than ${cap} bytes.`));
        return;
      }
      controller.enqueue(chunk.value);
    },
    async cancel(reason) {
      await reader.cancel(reason);
    },
  });
}

/** RequestInit, with the body types oauth4webapi may hand its custom fetch. */
export type SiteFetchInit = Omit<RequestInit, "body"> & { body?: RequestInit["body"] | Uint8Array | ArrayBuffer | ReadableStream };

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * The one fetch for every request to the site: bounded by the caller's signal (each caller's own
 * per-request timeout) and by the page view's deadline (withSiteDeadline), and reading at most the cap
 * of its kind.
 * A failure (timeout, refused connection, answer over its cap) rejects with a SiteFetchError, at once
 * or while the body is read, and logs one `site_error` line; nothing past the cap is ever read.
 */
export async function siteFetch(kind: SiteAnswerKind, input: string | URL, init: SiteFetchInit = {}): Promise<Response> {
  const url = new URL(input.toString());
  const signals: AbortSignal[] = [];
  const deadline = deadlineStore.getStore();
  if (deadline) signals.push(deadline);
  if (init.signal) signals.push(init.signal);
  // Never unbounded, even for a caller without a timeout of its own.
  if (signals.length === 0) signals.push(AbortSignal.timeout(PAGE_VIEW_DEADLINE_MS));
  const signal = AbortSignal.any(signals);
  let response: Response;
  try {
    response = await fetch(url, { ...init, body: init.body as BodyInit | null | undefined, signal });
  } catch (error) {
    const reason: SiteFailureReason = signal.aborted && isTimeout(signal.reason) ? "timeout" : "unreachable";
    logSiteError(kind, url, reason);
    throw new SiteFetchError(reason, kind, reason === "timeout" ? "The site did not answer in time." : "The site could not be reached.", {
      cause: error,
    });
  }
  const cap = SITE_ANSWER_BYTE_CAPS[kind];
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > cap) {
    await response.body?.cancel().catch(() => undefined);
    logSiteError(kind, url, "too_large", { capBytes: cap, declaredBytes: declared });
    throw new SiteFetchError("too_large", kind, `The site's answer is larger than ${cap} bytes.`);
  }
  if (!response.body || NULL_BODY_STATUSES.has(response.status)) return response;
  const capped = new Response(cappedBody(response.body, kind, url, signal), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A constructed Response has no URL; the site's endpoint stays readable for the logs (lib/site/failure-details.ts).
  Object.defineProperty(capped, "url", { value: response.url });
  return capped;
}

/** siteFetch for one kind, in the shape libraries take as their fetch (oauth4webapi's and jose's customFetch, the MCP SDK). */
export function siteFetchFor(kind: SiteAnswerKind): (input: string | URL, init?: SiteFetchInit) => Promise<Response> {
  return (input, init) => siteFetch(kind, input, init);
}
