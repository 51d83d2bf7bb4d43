/**
 * The sandbox site: a standalone Hono server implementing the Site Access API member flow strictly.
 *
 * `createSandbox` builds the app (for in-process use); `startSandbox` listens on a port (0 works: the issuer then
 * uses the actual port) and returns its URL and controls.
 */
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import type { Context, Next } from "hono";
import { ZodError } from "zod";
import { registerAccountRoutes } from "./account-graphql";
import { acceptsCoding, encodeAnswer } from "./content-coding";
import { registerAuthorizeRoutes } from "./authorize";
import { createMemberClient, registerAdminRoutes } from "./admin";
import type { CreateMemberClientResult, MemberClientInput } from "./admin";
import { registerDiscoveryRoutes, JWKS_PATH } from "./discovery";
import { registerDocumentRoutes } from "./documents";
import { registerEndSessionRoutes } from "./end-session";
import { NO_STORE_HEADERS } from "./http-util";
import { registerMcpRoutes } from "./mcp";
import { registerRegistrationRoutes } from "./register";
import type { EndpointName, FailureSpec, KnobsPatch, SandboxKnobs } from "./knobs";
import { registerMyLearningPage } from "./my-learning";
import { findMemberByEmail } from "./seed";
import { registerSitePages } from "./site-pages";
import { applyKnobs, createState, normalizeIssuer, resetSite, rotateSigningKey } from "./state";
import { isKeyRotationMode, KEY_ROTATION_MODES } from "./signing-keys";
import type { KeyRotationMode, KeyRotationResult } from "./signing-keys";
import type { RequestEndpoint, RequestLogEntry, SandboxOptions, SandboxState } from "./state";
import { registerPushedAuthorizationRoutes } from "./par";
import { registerTokenRoutes } from "./token";
import { registerUserInfoRoutes } from "./userinfo";

export type { SandboxOptions, RequestLogEntry, RequestEndpoint, SandboxState } from "./state";
export type { SandboxKnobs, KnobsPatch, FailureSpec, EndpointName } from "./knobs";
export type { KeyRotationMode, KeyRotationResult } from "./signing-keys";
export { KEY_ROTATION_MODES } from "./signing-keys";
export { DEFAULT_KNOBS, ENDPOINT_NAMES } from "./knobs";
export { MCP_PATH, MCP_SERVER_NAME, MCP_SERVER_VERSION, PUBLIC_MCP_TOOLS, MEMBER_MCP_TOOLS } from "./mcp";
export { ADMIN_PATH, DEVELOPERS_PATH, OAUTH_APPLICATIONS_PATH, SIGN_IN_PATH } from "./admin";
export type { MemberClientInput, CreateMemberClientResult } from "./admin";
export { DOCUMENT_PATHS } from "./documents";
export {
  SEEDED_DASHBOARD_CLIENT,
  SEEDED_PUBLIC_CLIENT,
  SEEDED_OPERATOR_CLIENT,
  VENDOR_INTEGRATIONS,
  DASHBOARD_CLIENT_ID,
  DASHBOARD_CLIENT_SECRET,
  DEMO_MEMBERS,
  DEMO_PASSWORD,
} from "./seed";

export interface Sandbox {
  app: Hono;
  state: SandboxState;
  /** Validates and merges knobs (throws a ZodError on bad input); returns the knobs now in force. */
  setKnobs(patch: KnobsPatch): SandboxKnobs;
  /** A copy of the request log, oldest first. */
  requests(): RequestLogEntry[];
  resetRequests(): void;
  /** Creates a member client as the admin area does (whatever the beta flag); the secret is returned once. */
  createMemberClient(input: MemberClientInput): CreateMemberClientResult;
  /** Turns the "MCP connections" beta on or off. */
  setMcpConnectionsBeta(enabled: boolean): void;
  /** What `POST /__sandbox/rotate-signing-key` does: a new id_token signing key, published as `mode` says. */
  rotateSigningKey(mode: KeyRotationMode): KeyRotationResult;
  /** What `POST /__sandbox/reset` does: knobs, beta flag and client list as seeded, request log emptied. */
  reset(): void;
}

export interface RunningSandbox extends Omit<Sandbox, "app"> {
  /** The issuer origin, e.g. `http://127.0.0.1:54321`. */
  url: string;
  port: number;
  app: Hono;
  close(): Promise<void>;
}

function classify(path: string): RequestEndpoint {
  if (path === JWKS_PATH) return "jwks";
  if (path.startsWith("/.well-known/")) return "discovery";
  if (path === "/oauth/authorize" || path.startsWith("/oauth/authorize/")) return "authorize";
  if (path === "/logout") return "logout";
  if (path.startsWith("/__sandbox/")) return "control";
  if (path.startsWith("/covers/")) return "covers";
  const api: Record<string, EndpointName> = {
    "/api/oauth/token": "token",
    "/api/oauth/userinfo": "userinfo",
    "/api/oauth/revoke": "revoke",
    "/api/oauth/introspect": "introspect",
    "/api/oauth/register": "register",
    "/account/graphql": "graphql",
    "/mcp": "mcp",
    "/api/oauth/par": "par",
  };
  return api[path] ?? "page";
}

/** Reads the body as text, or `undefined` when it exceeds `maxBytes` (or cannot be read). */
async function readLimitedText(request: Request, maxBytes: number): Promise<string | undefined> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) return undefined;
  const body = request.body;
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return undefined;
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const PADDING_CHUNK = new Uint8Array(64 * 1024).fill(0x20);

/**
 * The answer followed by spaces up to `minBytes` in all (the `answerPaddingBytes` knob): still valid JSON,
 * and ignored by an event-stream reader. Streamed chunk by chunk, so a 10 MB answer costs no memory here.
 */
export function padAnswer(response: Response, minBytes: number): Response {
  if ([101, 204, 205, 304].includes(response.status)) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  const reader = response.body?.getReader();
  let originalDone = reader === undefined;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!originalDone && reader) {
        const { done, value } = await reader.read();
        if (!done) {
          sent += value.byteLength;
          controller.enqueue(value);
          return;
        }
        originalDone = true;
      }
      if (sent >= minBytes) {
        controller.close();
        return;
      }
      const size = Math.min(PADDING_CHUNK.byteLength, minBytes - sent);
      sent += size;
      controller.enqueue(PADDING_CHUNK.subarray(0, size));
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

function isEndpointName(endpoint: RequestEndpoint): endpoint is EndpointName {
  return !["page", "logout", "control"].includes(endpoint);
}

/** Answers with the injected failure for this endpoint, if one is set (and still has requests left). */
function injectedFailure(
  c: Context,
  state: SandboxState,
  endpoint: EndpointName,
): { response: Response; mode: FailureSpec["mode"] } | undefined {
  const spec = state.knobs.failures[endpoint];
  if (!spec) return undefined;
  if (spec.times !== undefined) {
    const remaining = state.failureCounters.get(endpoint) ?? spec.times;
    if (remaining <= 1) {
      const failures = { ...state.knobs.failures };
      delete failures[endpoint];
      state.knobs = { ...state.knobs, failures };
      state.failureCounters.delete(endpoint);
    } else {
      state.failureCounters.set(endpoint, remaining - 1);
    }
  }
  switch (spec.mode) {
    case "status":
      return {
        mode: "status",
        response: c.json(
          {
            error: spec.error ?? (spec.status === 503 ? "temporarily_unavailable" : "server_error"),
            error_description: `Injected failure (sandbox knob): ${endpoint} answers ${spec.status}`,
          },
          spec.status as 500,
          {
            ...spec.headers,
            "Cache-Control": "no-store",
            ...retryAfterHeader(spec.retryAfter, spec.status === 503 || spec.status === 429 ? "1" : null),
          },
        ),
      };
    case "throttled": {
      const message = "Throttled: too many requests (sandbox knob)";
      const failure = spec.as === "error_type" ? { type: "RATE_LIMITED", message } : { message, extensions: { code: "THROTTLED" } };
      return {
        mode: "throttled",
        response: c.json({ errors: [failure] }, 200, { "Cache-Control": "no-store", ...retryAfterHeader(spec.retryAfter, null) }),
      };
    }
    case "malformed":
      return {
        mode: "malformed",
        response: c.body('<html><body>Service temporarily unavailable{"truncated":', 200, {
          "Content-Type": "application/json",
          "Cache-Control": "no-store",
        }),
      };
    case "redirect": {
      const location = spec.location ?? "/maintenance";
      return { mode: "redirect", response: c.redirect(new URL(location, state.issuer).toString(), 302) };
    }
  }
}

/** The `Retry-After` header of an injected failure: the knob's value, none for null, else the default. */
function retryAfterHeader(value: string | null | undefined, fallback: string | null): Record<string, string> {
  const chosen = value === undefined ? fallback : value;
  return chosen === null ? {} : { "Retry-After": chosen };
}

/**
 * Control requests change the whole site, so a cross-site form must not reach them (OWASP ASVS 5
 * V3.5.1-V3.5.3): every POST must be JSON (a form cannot send it without a CORS preflight, which the
 * sandbox never grants) and carry the sandbox's own origin in `Origin`.
 */
function controlRequestRefusal(c: Context, state: SandboxState): Response | undefined {
  if (c.req.method === "GET" || c.req.method === "HEAD") return undefined;
  const contentType = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (contentType !== "application/json") {
    return c.json(
      { error: "invalid_request", error_description: "Control requests must be JSON (Content-Type: application/json)" },
      415,
      NO_STORE_HEADERS,
    );
  }
  if (c.req.header("origin") !== new URL(state.issuer).origin) {
    return c.json(
      {
        error: "invalid_request",
        error_description: `Control requests must carry this site's origin (Origin: ${new URL(state.issuer).origin})`,
      },
      403,
      NO_STORE_HEADERS,
    );
  }
  return undefined;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const state = createState(options);
  const app = new Hono();

  app.use("*", async (c: Context, next: Next) => {
    const started = performance.now();
    const path = c.req.path;
    const endpoint = classify(path);
    if (endpoint === "control") {
      await next();
      return;
    }
    state.requestCount += 1;
    const entry: RequestLogEntry = {
      seq: state.requestCount,
      at: state.now(),
      method: c.req.method,
      path,
      endpoint,
      status: 0,
      durationMs: 0,
    };
    state.requests.push(entry);
    // Only the newest entries: a demo left running for days must not grow without bound.
    if (state.requests.length > state.requestLogLimit) state.requests.splice(0, state.requests.length - state.requestLogLimit);
    if (c.req.raw.body) {
      const text = await readLimitedText(c.req.raw, endpoint === "graphql" ? 256 * 1024 : 64 * 1024);
      if (text === undefined) {
        // The unread rest of the body makes the connection unusable: tell the client not to reuse it.
        c.res = c.json({ error: "invalid_request", error_description: "The request body is too large" }, 413, {
          Connection: "close",
        });
        entry.status = 413;
        entry.durationMs = Math.round(performance.now() - started);
        return;
      }
      // Hono caches the parsed body per kind; handlers then read this text instead of the consumed stream.
      (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    }
    if (endpoint === "token" && c.req.method === "POST") {
      const contentType = c.req.header("content-type") ?? "";
      if (contentType.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
        try {
          const params = new URLSearchParams(await c.req.text());
          const grantType = params.get("grant_type");
          const clientId = params.get("client_id");
          if (grantType !== null) entry.grantType = grantType.slice(0, 100);
          if (clientId !== null) entry.clientId = clientId.slice(0, 200);
        } catch {
          // An unreadable body is the endpoint's to report.
        }
      }
    }
    try {
      if (state.knobs.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, state.knobs.latencyMs));
      const failure = isEndpointName(endpoint) ? injectedFailure(c, state, endpoint) : undefined;
      if (failure) {
        entry.injectedFailure = failure.mode;
        c.res = failure.response;
      } else {
        await next();
        const padding = isEndpointName(endpoint) ? state.knobs.answerPaddingBytes[endpoint] : undefined;
        if (padding) c.res = padAnswer(c.res, padding);
      }
      const coding = state.knobs.contentCoding;
      if (coding !== null && isEndpointName(endpoint) && acceptsCoding(c.req.header("accept-encoding"), coding)) {
        const encoded = await encodeAnswer(c.res, coding);
        // Replaced whole: Hono would otherwise copy the plain answer's headers (its length) onto the encoded one.
        c.res = undefined;
        c.res = encoded;
        if (encoded.headers.has("content-encoding")) entry.contentCoding = coding;
      }
    } finally {
      entry.status = c.res.status;
      entry.durationMs = Math.round(performance.now() - started);
    }
  });

  if (state.control) {
    app.use("/__sandbox/*", async (c: Context, next: Next) => {
      const refusal = controlRequestRefusal(c, state);
      if (refusal) return refusal;
      await next();
    });
    app.get("/__sandbox/knobs", (c) => c.json(state.knobs));
    app.post("/__sandbox/knobs", async (c) => {
      const patch = await controlBody(c);
      if (patch === NOT_JSON) return notJson(c);
      try {
        return c.json(applyKnobs(state, patch));
      } catch (error) {
        if (error instanceof ZodError) {
          return c.json({ error: "invalid_request", error_description: "Invalid knobs", issues: error.issues }, 400);
        }
        throw error;
      }
    });
    app.get("/__sandbox/requests", (c) => c.json(state.requests));
    // What a member does in their account on a real site: withdraw the apps' access (every grant of the member).
    app.post("/__sandbox/withdraw-access", async (c) => {
      const body = await controlBody(c);
      if (body === NOT_JSON || body === null) return notJson(c);
      const { email } = body as { email?: unknown };
      const member = typeof email === "string" ? findMemberByEmail(email) : undefined;
      if (!member) return c.json({ error: "invalid_request", error_description: "email must name a demo member" }, 400);
      let withdrawn = 0;
      for (const grant of state.store.grants.values()) {
        if (grant.memberId === member.id && grant.revokedAt === undefined) {
          state.store.revokeGrant(grant.id, state.now());
          withdrawn += 1;
        }
      }
      return c.json({ withdrawn });
    });
    // What the admin's "Save beta settings" does (admin.ts), for journeys: { "enabled": true | false }.
    app.post("/__sandbox/mcp-beta", async (c) => {
      const body = await controlBody(c);
      if (body === NOT_JSON || body === null) return notJson(c);
      const { enabled } = body as { enabled?: unknown };
      if (typeof enabled !== "boolean")
        return c.json({ error: "invalid_request", error_description: "enabled must be true or false" }, 400);
      state.settings.mcpConnectionsBeta = enabled;
      return c.json({ mcpConnectionsBeta: enabled });
    });
    // What a real site does now and then (signing-keys.ts): { "mode": "graceful" | "abrupt" | "unpublished" }.
    app.post("/__sandbox/rotate-signing-key", async (c) => {
      const body = await controlBody(c);
      if (body === NOT_JSON || body === null) return notJson(c);
      const { mode } = body as { mode?: unknown };
      if (!isKeyRotationMode(mode)) {
        return c.json({ error: "invalid_request", error_description: `mode must be one of ${KEY_ROTATION_MODES.join(", ")}` }, 400);
      }
      return c.json(rotateSigningKey(state, mode));
    });
    app.post("/__sandbox/reset", (c) => {
      resetSite(state);
      return c.json({ ok: true });
    });
  }

  registerDiscoveryRoutes(app, state);
  registerAuthorizeRoutes(app, state);
  registerEndSessionRoutes(app, state);
  registerTokenRoutes(app, state);
  registerPushedAuthorizationRoutes(app, state);
  registerUserInfoRoutes(app, state);
  registerAccountRoutes(app, state);
  registerRegistrationRoutes(app, state);
  registerMcpRoutes(app, state);
  registerDocumentRoutes(app, state);
  registerAdminRoutes(app, state);
  registerSitePages(app, state);
  registerMyLearningPage(app, state);

  app.notFound((c) => {
    const path = c.req.path;
    if (path.startsWith("/api/") || path.startsWith("/.well-known/") || path.startsWith("/account/") || path.startsWith("/__sandbox/")) {
      return c.json({ error: "not_found", error_description: "No such endpoint" }, 404);
    }
    return c.text("Not found", 404);
  });

  app.onError((error, c) => {
    // Never a stack trace; tests assert nothing reaches this.
    console.error("[sandbox] unexpected error:", error instanceof Error ? error.message : "unknown");
    return c.json({ error: "server_error", error_description: "An unexpected error occurred" }, 500);
  });

  return {
    app: app,
    state,
    setKnobs: (patch) => applyKnobs(state, patch),
    requests: () => [...state.requests],
    resetRequests: () => {
      state.requests.length = 0;
    },
    createMemberClient: (input) => createMemberClient(state, input),
    setMcpConnectionsBeta: (enabled) => {
      state.settings.mcpConnectionsBeta = enabled;
    },
    rotateSigningKey: (mode) => rotateSigningKey(state, mode),
    reset: () => resetSite(state),
  };
}

function displayHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startSandbox(options: SandboxOptions & { port?: number; host?: string } = {}): Promise<RunningSandbox> {
  const { port = 0, host = "127.0.0.1", ...sandboxOptions } = options;
  const sandbox = createSandbox(sandboxOptions);
  const server = await new Promise<Server>((resolve, reject) => {
    const created = serve({ fetch: sandbox.app.fetch, port, hostname: host }) as Server;
    created.once("error", reject);
    created.once("listening", () => {
      created.off("error", reject);
      resolve(created);
    });
  });
  const address = server.address();
  const actualPort = typeof address === "object" && address !== null ? address.port : port;
  if (options.issuer === undefined) sandbox.state.issuer = normalizeIssuer(`http://${displayHost(host)}:${actualPort}`);
  let closed = false;
  return {
    ...sandbox,
    url: sandbox.state.issuer,
    port: actualPort,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (closed) return resolve();
        closed = true;
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

const NOT_JSON = Symbol("not JSON");

/** A control request's body as JSON, or NOT_JSON (every control route then answers notJson). */
async function controlBody(c: Context): Promise<unknown> {
  try {
    return JSON.parse(await c.req.text()) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function notJson(c: Context): Response {
  return c.json({ error: "invalid_request", error_description: "The body must be JSON" }, 400);
}
