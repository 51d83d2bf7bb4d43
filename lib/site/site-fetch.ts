import "server-only";

import { timeSiteCall } from "@/lib/metrics/record";

import { requestWhole, type WholeBody } from "./node-http-transport";
import { failureOf, NULL_BODY_STATUSES, SITE_ANSWER_BYTE_CAPS, tooLarge, type SiteAnswerKind } from "./site-call-policy";
import { boundOfCall, type CallBound } from "./site-deadline";

/** RequestInit, with the body types oauth4webapi may hand its custom fetch. */
export type SiteFetchInit = Omit<RequestInit, "body"> & { body?: RequestInit["body"] | Uint8Array | ArrayBuffer | ReadableStream };

/**
 * The one fetch for every request to the site: bounded by its own timeout and the page view's deadline
 * (lib/site/site-deadline.ts) and by the caller's signal, reading at most the cap of its kind; a failure
 * (timeout, refused connection, answer over its cap) rejects with a SiteFetchError, at once or while the
 * body is read, and logs one `site_error` line (lib/site/site-call-policy.ts).
 *
 * The transport is chosen by the kind: OAuth, key set and GraphQL answers are small and read whole over
 * node:http (lib/site/node-http-transport.ts); MCP answers may be event streams, read as they come
 * through `fetch`.
 */
export async function siteFetch(
  kind: SiteAnswerKind,
  input: string | URL,
  init: SiteFetchInit = {},
  /**
   * Told of a streamed answer's failure while its body is read (over its cap, cut off), as it happens: a
   * reader such as the MCP SDK reads an event stream apart from the request it answers and reports its
   * failure only as text, and would otherwise wait for its timeout with the failure's kind lost.
   */
  onBodyFailure?: (error: unknown) => void,
): Promise<Response> {
  const url = new URL(input.toString());
  if (kind === "mcp") return fetchStreaming(kind, url, init, timedCall(kind, init.signal), onBodyFailure);
  const body = wholeRequestBody(kind, init.body);
  return requestWhole(kind, url, init, body, timedCall(kind, init.signal));
}

/** The bound of one call (lib/site/site-deadline.ts), timed for the metrics once it is finished. */
function timedCall(kind: SiteAnswerKind, callerSignal: AbortSignal | null | undefined): CallBound {
  const { signal, finished } = boundOfCall(callerSignal);
  return { signal, finished: timeSiteCall(kind, finished) };
}

/** siteFetch for one kind, in the shape libraries take as their fetch (oauth4webapi's and jose's customFetch, the MCP SDK). */
export function siteFetchFor(
  kind: SiteAnswerKind,
  onBodyFailure?: (error: unknown) => void,
): (input: string | URL, init?: SiteFetchInit) => Promise<Response> {
  return (input, init) => siteFetch(kind, input, init, onBodyFailure);
}

/** A request body sent in one write; the small kinds never stream one (oauth4webapi, jose and graphql-request do not). */
function wholeRequestBody(kind: SiteAnswerKind, body: SiteFetchInit["body"]): WholeBody {
  if (body === undefined || body === null) return null;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError(`A request to the site of kind ${kind} sends its body whole, not as a stream.`);
}

/** An MCP request through fetch: the answer is read as it comes, cut off once it passes the cap of its kind. */
async function fetchStreaming(
  kind: SiteAnswerKind,
  url: URL,
  init: SiteFetchInit,
  { signal, finished }: CallBound,
  onBodyFailure: ((error: unknown) => void) | undefined,
): Promise<Response> {
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
  const capped = new Response(cappedBody(response.body, kind, url, { signal, finished }, onBodyFailure), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // A constructed Response has no URL; the site's endpoint stays readable for the logs (lib/site/failure-details.ts).
  Object.defineProperty(capped, "url", { value: response.url });
  return capped;
}

/**
 * The body of a streamed answer, cut off with a `too_large` error once more than its cap arrived; a
 * failure while it is read is also handed to `onFailure`.
 */
function cappedBody(
  body: ReadableStream<Uint8Array>,
  kind: SiteAnswerKind,
  url: URL,
  { signal, finished }: CallBound,
  onFailure: ((error: unknown) => void) | undefined,
): ReadableStream<Uint8Array> {
  const cap = SITE_ANSWER_BYTE_CAPS[kind];
  const reader = body.getReader();
  let received = 0;
  let cancelled = false;
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, failure: Error) => {
    onFailure?.(failure);
    controller.error(failure);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        finished();
        fail(controller, failureOf(error, signal, kind, url, true));
        return;
      }
      // The reader may cancel an answer it does not read (the MCP SDK, a 202) while a read is under way.
      if (cancelled) return;
      if (chunk.done) {
        finished();
        controller.close();
        return;
      }
      received += chunk.value.byteLength;
      if (received > cap) {
        finished();
        await reader.cancel().catch(() => undefined);
        fail(controller, tooLarge(kind, url, {}));
        return;
      }
      controller.enqueue(chunk.value);
    },
    async cancel(reason) {
      cancelled = true;
      finished();
      await reader.cancel(reason);
    },
  });
}
