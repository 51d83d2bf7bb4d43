import "server-only";

import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import https from "node:https";

import { LayerError } from "@/lib/errors/layer-error";
import { logEvent } from "@/lib/log/logger";
import { timeSiteCall } from "@/lib/metrics/record";

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

/** The longest one request to the site may take, answer included, whoever sends it. */
export const SITE_CALL_TIMEOUT_MS = 8_000;

/**
 * A signal that aborts after `milliseconds` unless cleared first. Unlike AbortSignal.timeout, a call
 * that finished clears its timer: the timer would otherwise keep the call, its signal and the request
 * context it was created in alive for the whole timeout (docs/performance.md, Memory).
 */
export function clearableTimeout(milliseconds: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException("The site did not answer in time.", "TimeoutError")), milliseconds);
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

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
    onAbort = () => reject(new SiteFetchError("timeout", "page_view", "The site did not answer in time.", { cause: signal.reason }));
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

function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && (reason.name === "TimeoutError" || reason.name === "AbortError");
}

function logSiteError(kind: SiteAnswerKind, url: URL, reason: SiteFailureReason, extra: Record<string, unknown> = {}): void {
  // The path names the endpoint; a query string is never logged (it may carry a code or state).
  logEvent("site_error", { kind, endpoint: url.pathname, reason, ...extra }, "warn");
}

/** The body of `response`, cut off with a `too_large` error once more than `cap` bytes arrived. */
function cappedBody(
  body: ReadableStream<Uint8Array>,
  kind: SiteAnswerKind,
  url: URL,
  signal: AbortSignal,
  finished: () => void,
): ReadableStream<Uint8Array> {
  const cap = SITE_ANSWER_BYTE_CAPS[kind];
  const reader = body.getReader();
  let received = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        finished();
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
        finished();
        controller.close();
        return;
      }
      received += chunk.value.byteLength;
      if (received > cap) {
        finished();
        await reader.cancel().catch(() => undefined);
        logSiteError(kind, url, "too_large", { capBytes: cap });
        controller.error(new SiteFetchError("too_large", kind, `The site's answer is larger than ${cap} bytes.`));
        return;
      }
      controller.enqueue(chunk.value);
    },
    async cancel(reason) {
      finished();
      await reader.cancel(reason);
    },
  });
}

/** RequestInit, with the body types oauth4webapi may hand its custom fetch. */
export type SiteFetchInit = Omit<RequestInit, "body"> & { body?: RequestInit["body"] | Uint8Array | ArrayBuffer | ReadableStream };

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * The one fetch for every request to the site: bounded by its own timeout (SITE_CALL_TIMEOUT_MS,
 * cleared when the answer is read; left out when the page view's deadline passes sooner), by the
 * caller's signal and by the page view's deadline (withSiteDeadline), and reading at most the cap of its kind.
 * A failure (timeout, refused connection, answer over its cap) rejects with a SiteFetchError, at once
 * or while the body is read, and logs one `site_error` line; nothing past the cap is ever read.
 *
 * OAuth, key set and GraphQL answers are small and read whole: they go over `node:http` with one
 * keep-alive agent per process, which costs the dashboard about half the CPU and a millisecond less
 * per call than `fetch` (docs/performance.md). MCP answers may be event streams, read as they come:
 * those go through `fetch`.
 */
export async function siteFetch(kind: SiteAnswerKind, input: string | URL, init: SiteFetchInit = {}): Promise<Response> {
  const url = new URL(input.toString());
  const signals: AbortSignal[] = [];
  let finished = NOTHING_TO_CLEAR;
  const deadline = deadlineStore.getStore();
  if (deadline) signals.push(deadline.signal);
  // A page view's deadline that passes before this call's own timeout would already bounds it: one timer
  // per page view then, not one more per call (a data route's call is inside a deadline of the same length).
  if (!deadline || deadline.endsAt > performance.now() + SITE_CALL_TIMEOUT_MS) {
    const timeout = clearableTimeout(SITE_CALL_TIMEOUT_MS);
    signals.push(timeout.signal);
    finished = timeout.clear;
  }
  if (init.signal) signals.push(init.signal);
  finished = timeSiteCall(kind, finished);
  const call: SiteCall = { kind, url, signal: signals.length === 1 ? signals[0]! : AbortSignal.any(signals), finished };
  const body = kind === "mcp" ? undefined : wholeRequestBody(init.body);
  if (body !== undefined && (init.redirect ?? "follow") === "manual") return readWhole(call, init, body);
  return fetchStreaming(call, init);
}

const NOTHING_TO_CLEAR = (): void => undefined;

/** One request to the site on its way: what it asks for, the signal that bounds it, and how it clears its timeout when done. */
interface SiteCall {
  kind: SiteAnswerKind;
  url: URL;
  signal: AbortSignal;
  finished: () => void;
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

function failureOf(error: unknown, signal: AbortSignal, kind: SiteAnswerKind, url: URL, brokeOff: boolean): SiteFetchError {
  const reason: SiteFailureReason = signal.aborted && isTimeout(signal.reason) ? "timeout" : "unreachable";
  const code = reason === "unreachable" ? networkErrorCode(error) : undefined;
  logSiteError(kind, url, reason, code ? { networkError: code } : {});
  const message =
    reason === "timeout"
      ? "The site did not answer in time."
      : brokeOff
        ? "The site's answer broke off."
        : "The site could not be reached.";
  return new SiteFetchError(reason, kind, message, { cause: error });
}

function tooLarge(kind: SiteAnswerKind, url: URL, extra: Record<string, unknown>): SiteFetchError {
  const cap = SITE_ANSWER_BYTE_CAPS[kind];
  logSiteError(kind, url, "too_large", { capBytes: cap, ...extra });
  return new SiteFetchError("too_large", kind, `The site's answer is larger than ${cap} bytes.`);
}

async function fetchStreaming({ kind, url, signal, finished }: SiteCall, init: SiteFetchInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, body: init.body as BodyInit | null | undefined, signal });
  } catch (error) {
    finished();
    throw failureOf(error, signal, kind, url, false);
  }
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > SITE_ANSWER_BYTE_CAPS[kind]) {
    finished();
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(kind, url, { declaredBytes: declared });
  }
  if (!response.body || NULL_BODY_STATUSES.has(response.status)) {
    finished();
    return response;
  }
  const capped = new Response(cappedBody(response.body, kind, url, signal, finished), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A constructed Response has no URL; the site's endpoint stays readable for the logs (lib/site/failure-details.ts).
  Object.defineProperty(capped, "url", { value: response.url });
  return capped;
}

/** A request body that can be sent in one write (what oauth4webapi, jose and graphql-request send), or undefined for a stream. */
function wholeRequestBody(body: SiteFetchInit["body"]): string | Uint8Array | null | undefined {
  if (body === undefined || body === null) return null;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

const keepAliveAgents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };

function requestHeaders(headers: HeadersInit | undefined, body: string | Uint8Array | null): http.OutgoingHttpHeaders {
  const outgoing: http.OutgoingHttpHeaders = {};
  new Headers(headers).forEach((value, name) => (outgoing[name] = value));
  if (body !== null) outgoing["content-length"] = Buffer.byteLength(body);
  return outgoing;
}

/**
 * One request over node:http, its answer read whole up to the cap of its kind. An answer over the cap
 * stops the read at once; the Response still carries the status, and reading its body fails with
 * too_large (a revocation, which never reads the body, still learns its status: RFC 7009 section 2.2).
 */
function readWhole({ kind, url, signal, finished }: SiteCall, init: SiteFetchInit, body: string | Uint8Array | null): Promise<Response> {
  const cap = SITE_ANSWER_BYTE_CAPS[kind];
  const agent = url.protocol === "https:" ? keepAliveAgents["https:"] : keepAliveAgents["http:"];
  const send = url.protocol === "https:" ? https.request : http.request;
  return new Promise<Response>((resolve, reject) => {
    // Settled once: whatever the sockets report after (a destroyed answer's close) is neither logged nor seen.
    let settled = false;
    const fail = (error: unknown, brokeOff: boolean) => {
      if (settled) return;
      settled = true;
      finished();
      reject(error instanceof SiteFetchError ? error : failureOf(error, signal, kind, url, brokeOff));
    };
    const request = send(url, { method: init.method ?? "GET", headers: requestHeaders(init.headers, body), agent, signal }, (answer) => {
      const status = answer.statusCode ?? 502;
      const respond = (content: BodyInit | null) => {
        if (settled) return;
        settled = true;
        finished();
        const headers = new Headers();
        const raw = answer.rawHeaders;
        for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
        const response = new Response(NULL_BODY_STATUSES.has(status) ? null : content, {
          status,
          statusText: answer.statusMessage,
          headers,
        });
        // The site's endpoint stays readable for the logs (lib/site/failure-details.ts), as a fetch Response's would.
        Object.defineProperty(response, "url", { value: url.href });
        resolve(response);
      };
      const declared = Number(answer.headers["content-length"] ?? Number.NaN);
      if (declared > cap) {
        answer.destroy();
        fail(tooLarge(kind, url, { declaredBytes: declared }), false);
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      answer.on("data", (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received <= cap) {
          chunks.push(chunk);
          return;
        }
        answer.destroy();
        const failure = tooLarge(kind, url, {});
        respond(new ReadableStream({ start: (controller) => controller.error(failure) }));
      });
      answer.on("end", () => respond(received === 0 ? null : Buffer.concat(chunks, received)));
      answer.on("error", (error) => fail(error, true));
      answer.on("close", () => fail(new Error("The connection closed before the answer was complete."), true));
    });
    request.on("error", (error) => fail(error, false));
    request.end(body ?? undefined);
  });
}

/** siteFetch for one kind, in the shape libraries take as their fetch (oauth4webapi's and jose's customFetch, the MCP SDK). */
export function siteFetchFor(kind: SiteAnswerKind): (input: string | URL, init?: SiteFetchInit) => Promise<Response> {
  return (input, init) => siteFetch(kind, input, init);
}
