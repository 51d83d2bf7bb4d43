import "server-only";

import http from "node:http";
import https from "node:https";

import { ACCEPTED_CODINGS, contentCodingsOf, decodeContent, isOverCap } from "./content-coding";
import { failureOf, NULL_BODY_STATUSES, SITE_ANSWER_BYTE_CAPS, tooLarge, type SiteAnswerKind } from "./site-call-policy";
import type { CallBound } from "./site-deadline";

/**
 * The transport of the small answers (OAuth, key sets, GraphQL): node:http with one keep-alive agent per
 * process, the answer read whole up to the cap of its kind. It costs the dashboard about half the CPU and
 * a millisecond less per call than `fetch` (docs/performance.md). It never follows a redirect (oauth4webapi
 * and jose ask for none).
 */

/** A request body sent in one write: what oauth4webapi, jose and graphql-request send. */
export type WholeBody = string | Uint8Array | null;

/**
 * The agents follow Node's own proxy settings, as its global agents and fetch (the MCP calls) do: with
 * NODE_USE_ENV_PROXY=1 (or --use-env-proxy), HTTP_PROXY, HTTPS_PROXY and NO_PROXY. Every call to the site then
 * takes the same way out, through an operator's egress proxy when there is one; a custom agent would go
 * straight out otherwise. (Node builds both global agents with the same `proxyEnv`.)
 */
const proxyEnv = https.globalAgent.options.proxyEnv;
const keepAliveAgents = {
  "http:": new http.Agent({ keepAlive: true, proxyEnv }),
  "https:": new https.Agent({ keepAlive: true, proxyEnv }),
};

function requestHeaders(headers: HeadersInit | undefined, body: WholeBody): http.OutgoingHttpHeaders {
  // The codings the answer may be in (lib/site/content-coding.ts), as fetch asks: without the header, a
  // site may answer in any coding at all (RFC 9110 section 12.5.3).
  const outgoing: http.OutgoingHttpHeaders = { "accept-encoding": ACCEPTED_CODINGS };
  new Headers(headers).forEach((value, name) => (outgoing[name] = value));
  if (body !== null) outgoing["content-length"] = Buffer.byteLength(body);
  return outgoing;
}

/**
 * Whether a request failed only because it went out on a kept-alive connection the site had just closed:
 * the site closes an idle connection after its keep-alive timeout, and a request written as it does is
 * reset before any answer (Node's http docs, request.reusedSocket). Such a request is sent once more, on a
 * new connection; a reset on a new connection is the site's answer, and stays.
 */
function closedWhileIdle(request: http.ClientRequest, error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return request.reusedSocket && (code === "ECONNRESET" || code === "EPIPE");
}

/**
 * Whether sending a request a second time changes nothing at the site, should it have read the first after
 * all (a reset does not prove it did not): a GET or HEAD, or an Account API query, since the dashboard sends
 * the Account API no mutation (tests/unit/account-api/pages.test.ts). A POST to the token, revocation or
 * pushed-request endpoint is never sent again (RFC 9110 section 9.2.2): a refresh token or an authorization
 * code sent twice would be a replay (RFC 9700 section 4.14.2, RFC 6749 section 4.1.2).
 */
function safeToSendAgain(kind: SiteAnswerKind, method: string): boolean {
  return method === "GET" || method === "HEAD" || kind === "graphql";
}

/**
 * One request over node:http, its answer read whole up to the cap of its kind. An answer over the cap
 * stops the read at once; the Response still carries the status, and reading its body fails with
 * too_large (a revocation, which never reads the body, still learns its status: RFC 7009 section 2.2).
 */
export function requestWhole(
  kind: SiteAnswerKind,
  url: URL,
  init: { method?: string; headers?: HeadersInit },
  body: WholeBody,
  bound: CallBound,
): Promise<Response> {
  return requestOnce(kind, url, init, body, bound, { mayRetry: safeToSendAgain(kind, init.method ?? "GET") });
}

function requestOnce(
  kind: SiteAnswerKind,
  url: URL,
  init: { method?: string; headers?: HeadersInit },
  body: WholeBody,
  bound: CallBound,
  { mayRetry }: { mayRetry: boolean },
): Promise<Response> {
  const { signal, finished } = bound;
  const cap = SITE_ANSWER_BYTE_CAPS[kind];
  const agent = url.protocol === "https:" ? keepAliveAgents["https:"] : keepAliveAgents["http:"];
  const send = url.protocol === "https:" ? https.request : http.request;
  return new Promise<Response>((resolve, reject) => {
    // Settled once: whatever the sockets report after (a destroyed answer's close) is neither logged nor seen.
    let settled = false;
    // Whether the site began to answer: it has read the request, which is then never sent again.
    let answered = false;
    const fail = (error: unknown, brokeOff: boolean) => {
      if (settled) return;
      settled = true;
      finished();
      reject(failureOf(error, signal, kind, url, brokeOff));
    };
    const request = send(url, { method: init.method ?? "GET", headers: requestHeaders(init.headers, body), agent, signal }, (answer) => {
      answered = true;
      const status = answer.statusCode ?? 502;
      const respond = (content: BodyInit | null, decoded = false) => {
        if (settled) return;
        settled = true;
        finished();
        const headers = new Headers();
        const raw = answer.rawHeaders;
        for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
        if (decoded) {
          // What the reader gets is the decoded content: its length and coding are no longer the ones sent.
          headers.delete("content-encoding");
          headers.delete("content-length");
        }
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
      // Whether the whole answer arrived: its decoding may still be under way when the connection closes.
      let ended = false;
      /** The answer with a body whose reading fails: its status still reaches a reader that does not read it. */
      const respondUnreadable = (failure: Error) => respond(new ReadableStream({ start: (controller) => controller.error(failure) }));
      answer.on("data", (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received <= cap) {
          chunks.push(chunk);
          return;
        }
        answer.destroy();
        respondUnreadable(tooLarge(kind, url, {}));
      });
      answer.on("end", () => {
        ended = true;
        const content = received === 0 ? null : Buffer.concat(chunks, received);
        const codings = contentCodingsOf(answer.headers["content-encoding"]);
        if (content === null || codings.length === 0) {
          respond(content);
          return;
        }
        decodeContent(content, codings, cap).then(
          (plain) => (plain === undefined ? respond(content) : respond(plain, true)),
          (error: unknown) =>
            respondUnreadable(
              isOverCap(error) ? tooLarge(kind, url, { contentCoding: codings.join(", ") }) : failureOf(error, signal, kind, url, true),
            ),
        );
      });
      answer.on("error", (error) => fail(error, true));
      answer.on("close", () => {
        if (!ended) fail(new Error("The connection closed before the answer was complete."), true);
      });
    });
    request.on("error", (error) => {
      if (!settled && !answered && mayRetry && !signal.aborted && closedWhileIdle(request, error)) {
        settled = true;
        resolve(requestOnce(kind, url, init, body, bound, { mayRetry: false }));
        return;
      }
      fail(error, false);
    });
    request.end(body ?? undefined);
  });
}
