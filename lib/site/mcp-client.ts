import "server-only";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import * as oauth from "oauth4webapi";

import { resourceRequestOptions, retryOnceOnDpopNonce } from "@/lib/auth/dpop";
import { getConfig } from "@/lib/config";
import { isPassingReason } from "@/lib/contract/connections";
import { acceptLanguageFor, type Locale } from "@/lib/i18n/locales";
import { processWide } from "@/lib/server/process-wide";
import type { Connections, ConnectionsUnavailableReason, ConnectionTool } from "@/lib/types/account";

import { logEvent } from "@/lib/log/logger";

import { isSiteError, refusalOfChallenge, SiteError } from "./errors";
import { siteRequestOptions } from "./oauth-http";
import { lostMcpSession } from "./mcp-session";
import { isThrottledStatus, siteRetryAfterSeconds } from "./site-busy";
import { siteFailureOf } from "./site-call-policy";
import { clearableTimeout, outsideSiteDeadline, SITE_CALL_TIMEOUT_MS } from "./site-deadline";
import { siteFetch, siteFetchFor } from "./site-fetch";

export const MCP_PATH = "/mcp";

const CLIENT_INFO = { name: "companion-dashboard", version: "1.0.0" } as const;
/** tools/list is paged by the server; a site that pages forever is cut off here. */
const MAX_TOOL_PAGES = 10;
const MAX_TOOLS = 200;
const MAX_NAME_LENGTH = 128;
const MAX_TITLE_LENGTH = 200;
const MAX_DESCRIPTION_LENGTH = 1_000;
const MAX_SERVER_TEXT_LENGTH = 200;

/** What one connection to the MCP server found out. */
export type McpInspection =
  | { available: true; serverName: string; serverVersion: string; tools: Omit<ConnectionTool, "access">[]; toolsLanguage?: string }
  | { available: false; reason: ConnectionsUnavailableReason; retryAfterSeconds?: number };

/** The language the tools' texts are asked in (Accept-Language) and the one the server says it wrote them in. */
interface ToolTextLanguage {
  readonly accept: string;
  /** From the last answer's Content-Language (RFC 9110 section 8.5), when it names one language. */
  declared?: string;
}

/** A single language tag (RFC 5646's form, loosely): anything else, a list included, says nothing we can use. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8}){0,4}$/;

function declaredLanguage(response: Response): string | undefined {
  const value = response.headers.get("content-language")?.trim();
  return value && LANGUAGE_TAG.test(value) ? value : undefined;
}

/** `${SITE_URL}/mcp`: the URL an assistant connects to, and the only URL this module calls. */
export function mcpServerUrl(): string {
  return `${getConfig().siteUrl}${MCP_PATH}`;
}

function ownResourceMetadataUrls(): string[] {
  const site = getConfig().siteUrl;
  // RFC 9728 section 3.1: the metadata of a resource with a path may sit at the path-suffixed well-known URL.
  return [`${site}/.well-known/oauth-protected-resource`, `${site}/.well-known/oauth-protected-resource${MCP_PATH}`];
}

/**
 * The fetch the SDK's transport uses: only the MCP endpoint, with the member's bearer token attached by
 * oauth4webapi (which also parses WWW-Authenticate challenges), never anything from the browser's request,
 * no redirects, and bounded by the inspection's deadline. The standalone server-to-client SSE stream (GET)
 * is answered locally with 405, which the transport reads as "not offered": listing tools never needs it.
 * A failure while an answer's body is read is told to `onBodyFailure` as it happens (siteFetch). With
 * `language`, the texts are asked for in the member's language and the answer's language is kept in it.
 * (Exported for its test.)
 */
export function mcpTransportFetch(
  endpoint: URL,
  accessToken: string | null,
  deadline: AbortSignal,
  onBodyFailure: (error: unknown) => void,
  language?: ToolTextLanguage,
): FetchLike {
  return async (input, init) => {
    const url = new URL(input.toString());
    if (url.href !== endpoint.href) throw new Error("The MCP transport asked for another URL than the site's MCP endpoint.");
    const method = (init?.method ?? "GET").toUpperCase();
    if (method === "GET") return new Response(null, { status: 405, headers: { allow: "POST" } });
    const headers = new Headers(init?.headers);
    headers.delete("authorization");
    headers.delete("cookie");
    if (language) headers.set("accept-language", language.accept);
    const body = typeof init?.body === "string" ? init.body : null;
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const response = await sendToMcpServer(url, accessToken, { method, headers, body, signal }, onBodyFailure);
    if (language) language.declared = declaredLanguage(response);
    return response;
  };
}

/** One request to the MCP endpoint: anonymous, or with the member's token (and a DPoP proof when it is bound). */
async function sendToMcpServer(
  url: URL,
  accessToken: string | null,
  { method, headers, body, signal }: { method: string; headers: Headers; body: string | null; signal: AbortSignal },
  onBodyFailure: (error: unknown) => void,
): Promise<Response> {
  if (accessToken === null) return siteFetch("mcp", url, { method, headers, body, redirect: "manual", signal }, onBodyFailure);
  // A DPoP-bound token goes with a proof (lib/auth/dpop.ts); a Bearer one exactly as before.
  const options = await resourceRequestOptions(url, {
    ...siteRequestOptions(),
    signal,
    [oauth.customFetch]: siteFetchFor("mcp", onBodyFailure),
  });
  return retryOnceOnDpopNonce(() => oauth.protectedResourceRequest(accessToken, method, url, headers, body, options));
}

function clip(value: unknown, max: number): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim().replace(/\s+/g, " ");
  if (text === "") return undefined;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function reshapeTool(tool: Tool): Omit<ConnectionTool, "access"> | undefined {
  const name = clip(tool.name, MAX_NAME_LENGTH);
  if (name === undefined) return undefined;
  const title = clip(tool.title ?? tool.annotations?.title, MAX_TITLE_LENGTH);
  const description = clip(tool.description, MAX_DESCRIPTION_LENGTH);
  return { name, ...(title ? { title } : {}), ...(description ? { description } : {}) };
}

/**
 * Connects to the site's MCP server (Streamable HTTP, the official SDK), reads the server's name and
 * version, lists its tools page by page, ends the session a server that keeps them gave it, and disconnects.
 * With `accessToken` the member's own tools are listed too; with null the call is anonymous (public tools
 * only, docs/architecture.md section 6.3).
 *
 * A site without an MCP server, or one that is down, is an answer (`available: false`), not an error.
 * A refused token throws the same SiteError codes as the Account API: `token_refused` (401
 * invalid_token, so callWithMemberSession refreshes once and retries), `insufficient_scope` (403) and
 * `token_audience_mismatch` (a challenge pointing at another resource's metadata).
 */
export async function inspectMcpServer(accessToken: string | null, locale?: Locale): Promise<McpInspection> {
  const first = await inspectInOneSession(accessToken, locale);
  if (first !== SESSION_LOST) return first;
  // A session the server lost (lostMcpSession): the client starts a new one. Once: a site that loses every
  // session may mend, so "unreachable", never "not offered".
  const second = await inspectInOneSession(accessToken, locale);
  return second === SESSION_LOST ? { available: false, reason: "unreachable" } : second;
}

/** What a listing got when the server answered 404 to a request naming the session it gave. */
const SESSION_LOST = Symbol("session lost");

async function inspectInOneSession(accessToken: string | null, locale?: Locale): Promise<McpInspection | typeof SESSION_LOST> {
  const endpoint = new URL(mcpServerUrl());
  // Cleared when the listing is done: a timer left to fire would keep this request's state alive for 8 s.
  const { signal: deadline, clear: clearDeadline } = clearableTimeout(SITE_CALL_TIMEOUT_MS);
  // The first failure the SDK only reports (an event stream over its cap or not JSON-RPC) ends the
  // listing at once, classified by that failure rather than by the timeout it would otherwise wait for.
  let firstFailure: unknown;
  let reject: (error: unknown) => void = () => undefined;
  const broken = new Promise<never>((_, rejectBroken) => (reject = rejectBroken));
  broken.catch(() => undefined);
  const fail = (error: unknown) => {
    firstFailure ??= error;
    reject(error);
  };
  const untilBroken = <T>(work: Promise<T>): Promise<T> => Promise.race([work, broken]);
  const language: ToolTextLanguage | undefined = locale ? { accept: acceptLanguageFor(locale) } : undefined;
  // An answer that says the server limits how often it answers (a 429, or a 403 that says so), and the wait
  // it named (its Retry-After, or the reset of a used-up rate limit), said with "busy".
  let throttled: { waitSeconds: number | undefined } | undefined;
  let sessionLost = false;
  const send = mcpTransportFetch(endpoint, accessToken, deadline, fail, language);
  const transport = new StreamableHTTPClientTransport(endpoint, {
    fetch: async (input, init) => {
      const response = await send(input, init);
      if (isThrottledStatus(response.status, response.headers)) throttled = { waitSeconds: siteRetryAfterSeconds(response) };
      if (lostMcpSession(response.status, init?.headers)) sessionLost = true;
      return response;
    },
    requestInit: { redirect: "manual" },
    // A reconnect would outlive this request: never.
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1_000, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1 },
  });
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  client.onerror = fail;
  const requestOptions = { signal: deadline, timeout: SITE_CALL_TIMEOUT_MS };
  try {
    await untilBroken(client.connect(transport, requestOptions));
    const server = client.getServerVersion();
    const tools: Omit<ConnectionTool, "access">[] = [];
    if (client.getServerCapabilities()?.tools) {
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (let page = 0; page < MAX_TOOL_PAGES && tools.length < MAX_TOOLS; page += 1) {
        const result = await untilBroken(client.listTools(cursor === undefined ? {} : { cursor }, requestOptions));
        for (const tool of result.tools) {
          const reshaped = reshapeTool(tool);
          if (reshaped && !seen.has(reshaped.name) && tools.length < MAX_TOOLS) {
            seen.add(reshaped.name);
            tools.push(reshaped);
          }
        }
        cursor = result.nextCursor;
        if (!cursor) break;
      }
    }
    return {
      available: true,
      serverName: clip(server?.name, MAX_SERVER_TEXT_LENGTH) ?? endpoint.host,
      serverVersion: clip(server?.version, MAX_SERVER_TEXT_LENGTH) ?? "",
      tools,
      ...(language?.declared ? { toolsLanguage: language.declared } : {}),
    };
  } catch (error) {
    if (sessionLost) return SESSION_LOST;
    const failure = toMcpFailure(firstFailure ?? error, throttled !== undefined);
    if (failure instanceof SiteError) throw failure;
    return { available: false, reason: failure, ...waitOf({ retryAfterSeconds: failure === "busy" ? throttled?.waitSeconds : undefined }) };
  } finally {
    client.onerror = undefined;
    // MCP Streamable HTTP, session management: a client done with a session the server gave it ends it
    // (DELETE), rather than leave one open at the site per view of Settings. A 405 (the server keeps them) or
    // a failure changes nothing of the answer; past the deadline the request is not even sent.
    if (transport.sessionId !== undefined && !sessionLost && !deadline.aborted) await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
    clearDeadline();
  }
}

/**
 * What the site's MCP server tells an anonymous caller, which is also whether the site's MCP beta is on:
 * a site offers AI assistants only while `/mcp` answers a caller without a token (site-access-api.md
 * section 5.4); a site whose beta is off (the sandbox then answers 404), that has no MCP server, or that
 * does not answer, does not, and Settings shows no "Connect an AI assistant (beta)".
 */
export type AnonymousMcpAnswer =
  { on: true; publicToolNames: Set<string> } | { on: false; reason: ConnectionsUnavailableReason; retryAfterSeconds?: number };

/**
 * The anonymous answer is the same for every member: it is kept per process for MCP_PROBE_TTL_SECONDS
 * (0: asked on every view), the "off" answers too, so that a site without MCP is not asked on each view;
 * but not "unreachable" or "busy", which say nothing of the site's beta and may pass by the next view.
 */
const anonymousAnswers = processWide("mcp-anonymous-answer", () => ({
  cache: undefined as { url: string; expiresAt: number; answer: Promise<AnonymousMcpAnswer> } | undefined,
}));

async function probeAnonymouslyAtSite(): Promise<AnonymousMcpAnswer> {
  try {
    const inspection = await inspectMcpServer(null);
    return inspection.available
      ? { on: true, publicToolNames: new Set(inspection.tools.map((tool) => tool.name)) }
      : { on: false, reason: inspection.reason, ...waitOf(inspection) };
  } catch {
    // The anonymous caller refused (401/403): the site offers MCP to no one who is not signed in.
    return { on: false, reason: "not_offered" };
  }
}

/** Asks the site's MCP server as an anonymous caller (the official SDK client, as every call here), or reuses a recent answer. */
export function probeMcpAnonymously(): Promise<AnonymousMcpAnswer> {
  const url = mcpServerUrl();
  const now = Date.now();
  const { cache } = anonymousAnswers;
  if (cache?.url === url && cache.expiresAt > now) return cache.answer;
  // Started for every member: outside the deadline of the page view that happened to ask first, whose
  // own deadline would otherwise abort it and leave "unreachable" as everyone's answer.
  const answer = outsideSiteDeadline(probeAnonymouslyAtSite);
  const ttlMs = getConfig().mcpProbeTtlSeconds * 1000;
  const kept = ttlMs > 0 ? { url, expiresAt: now + ttlMs, answer } : undefined;
  anonymousAnswers.cache = kept;
  void answer.then((found) => {
    if (!found.on && isPassingReason(found.reason) && anonymousAnswers.cache === kept) anonymousAnswers.cache = undefined;
  });
  return answer;
}

/** Tests only: forgets the anonymous answer, as a new process would. */
export function resetPublicToolsCacheForTests(): void {
  anonymousAnswers.cache = undefined;
}

/**
 * The loader of `GET /api/account/connections`, for callWithMemberSession. First the anonymous answer:
 * while the site's MCP beta is off (no answer for anonymous callers) the member's tools are not asked for
 * and the answer is "not available", so Settings hides the assistant. Then the member's tools, each told
 * apart as the member's own or the public catalog's: a tool is "public" only when an anonymous caller
 * gets it too. The anonymous answer runs once per loader even when the member's call is retried after a
 * refresh, and never starts before there is a member session.
 *
 * A token the MCP server still refuses once it was refreshed is the MCP server's own verdict, not the
 * end of the member's grant (the Account API took the same grant to show every other page): the answer
 * is "refused", and the session stays. Ending it there made Settings, which asks for this on every
 * view, a loop back to sign-in.
 */
export function connectionsLoader(locale: Locale): (accessToken: string) => Promise<Connections> {
  let anonymousAnswer: Promise<AnonymousMcpAnswer> | undefined;
  let attempts = 0;
  return async (accessToken) => {
    attempts += 1;
    anonymousAnswer ??= probeMcpAnonymously();
    const mcpUrl = mcpServerUrl();
    const anonymous = await anonymousAnswer;
    if (!anonymous.on) return { available: false, mcpUrl, reason: anonymous.reason, ...waitOf(anonymous) };
    let member: McpInspection;
    try {
      member = await inspectMcpServer(accessToken, locale);
    } catch (error) {
      // The second attempt is callWithMemberSession's, with a token refreshed just now.
      if (attempts < 2 || !isSiteError(error, "token_refused")) throw error;
      logEvent("site_error", { endpoint: MCP_PATH, siteErrorCode: "invalid_token", reason: "refreshed_token_refused" }, "warn");
      return { available: false, mcpUrl, reason: "refused" };
    }
    if (!member.available) return { available: false, mcpUrl, reason: member.reason, ...waitOf(member) };
    const tools: ConnectionTool[] = member.tools.map((tool) => ({
      ...tool,
      access: anonymous.publicToolNames.has(tool.name) ? "public" : "member",
    }));
    return {
      available: true,
      mcpUrl,
      serverName: member.serverName,
      serverVersion: member.serverVersion,
      tools,
      ...(member.toolsLanguage ? { toolsLanguage: member.toolsLanguage } : {}),
      memberTools: tools.some((tool) => tool.access === "member"),
    };
  };
}

/** The wait an answer names, as a field to spread: none when it names none. */
function waitOf({ retryAfterSeconds }: { retryAfterSeconds?: number | undefined }): { retryAfterSeconds?: number } {
  return retryAfterSeconds === undefined ? {} : { retryAfterSeconds };
}

/** HTTP statuses meaning "there is no MCP server here" rather than "it failed this time". */
const NOT_OFFERED_STATUSES = new Set([404, 405, 410, 501]);

function fromStatus(status: number): ConnectionsUnavailableReason {
  if (NOT_OFFERED_STATUSES.has(status)) return "not_offered";
  if (status === 429) return "busy";
  // 3xx (a maintenance page, a sign-in page), 408 and 5xx: the site may answer later.
  if ((status >= 300 && status < 400) || status === 408 || status >= 500) return "unreachable";
  // -1 (a content type that is not MCP's), 400 and any other refusal: not an MCP server we understand.
  return "incompatible";
}

/** `throttled`: an answer of the listing said the server limits how often it answers (isThrottledStatus). */
function toMcpFailure(error: unknown, throttled: boolean): SiteError | ConnectionsUnavailableReason {
  const failure = siteFailureOf(error);
  if (failure) return failure.code === "too_large" ? "too_large" : "unreachable";
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    return refusalOfChallenge(error, { name: "MCP server", ownMetadataUrls: ownResourceMetadataUrls() });
  }
  if (error instanceof StreamableHTTPError) return throttled ? "busy" : fromStatus(error.code ?? -1);
  if (error instanceof McpError) {
    return error.code === Number(ErrorCode.RequestTimeout) || error.code === Number(ErrorCode.ConnectionClosed)
      ? "unreachable"
      : "incompatible";
  }
  // Timeouts and aborts (DOMException), and fetch's TypeError for refused connections, DNS and TLS failures.
  if (error instanceof DOMException || error instanceof TypeError) return "unreachable";
  // Anything else is an answer that is not MCP: invalid JSON, a JSON-RPC shape the SDK refuses, an
  // unsupported protocol version.
  return "incompatible";
}
