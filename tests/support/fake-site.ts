import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

/**
 * A fake site for unit tests: discovery, JWKS, token, UserInfo, revocation and the Account API, each
 * answered by a handler the test sets. Any call without a handler is recorded as unexpected and answered
 * 500; `setUpFakeSite` fails every test that made one, and every test that set a handler the dashboard
 * never called. Keys are generated per run (real ES256 crypto).
 */
export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  headers: IncomingMessage["headers"];
}

export type Handler = (call: RecordedCall) => {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  delayMs?: number;
};

export interface FakeSite {
  url: string;
  calls: RecordedCall[];
  handlers: Map<string, Handler>;
  privateKey: CryptoKey;
  kid: string;
  signIdToken(claims: JWTPayload, options?: { kid?: string; alg?: string; key?: CryptoKey | Uint8Array }): Promise<string>;
  /** Throws when a call found no handler since the last check (and starts afresh). */
  assertNoUnexpectedCalls(): void;
  /** Throws when a handler set since the last reset was never called. */
  assertEveryHandlerUsed(): void;
  /** Back to the discovery and JWKS handlers alone, with no calls recorded. */
  reset(): void;
  callsTo(path: string): RecordedCall[];
  close(): Promise<void>;
}

export async function startFakeSite(options: { idTokens?: boolean } = {}): Promise<FakeSite> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const kid = "fake-site-key-1";
  const calls: RecordedCall[] = [];
  const unexpected: string[] = [];
  const handlers = new TrackedHandlers();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = new URL(request.url ?? "/", "http://x").pathname;
      const contentType = request.headers["content-type"] ?? "";
      const body = contentType.includes("application/x-www-form-urlencoded")
        ? new URLSearchParams(raw)
        : contentType.includes("json") && raw
          ? (JSON.parse(raw) as unknown)
          : raw;
      const call: RecordedCall = { method: request.method ?? "GET", path, body, headers: request.headers };
      calls.push(call);
      const handler = handlers.use(`${call.method} ${path}`);
      if (!handler) {
        unexpected.push(`${call.method} ${path}`);
        response.writeHead(500, { "content-type": "application/json" }).end('{"error":"unexpected_call"}');
        return;
      }
      const answer = handler(call);
      const headers = { ...(answer.json !== undefined ? { "content-type": "application/json" } : {}), ...answer.headers };
      const send = () => {
        if (!response.destroyed)
          response
            .writeHead(answer.status ?? 200, headers)
            .end(answer.json !== undefined ? JSON.stringify(answer.json) : (answer.text ?? ""));
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };

  const metadata = {
    issuer: url,
    authorization_endpoint: `${url}/oauth/authorize`,
    token_endpoint: `${url}/api/oauth/token`,
    userinfo_endpoint: `${url}/api/oauth/userinfo`,
    revocation_endpoint: `${url}/api/oauth/revoke`,
    scopes_supported: ["openid", "profile", "email", "account:read"],
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_post"],
    authorization_response_iss_parameter_supported: true,
    ...(options.idTokens === false ? {} : { jwks_uri: `${url}/jwks`, id_token_signing_alg_values_supported: ["ES256"] }),
  };
  const defaults = new Map<string, Handler>([
    ["GET /.well-known/oauth-authorization-server", () => ({ json: metadata })],
    ["GET /.well-known/openid-configuration", () => ({ json: metadata })],
    ["GET /jwks", () => ({ json: { keys: [jwk] } })],
  ]);
  const reset = () => {
    calls.length = 0;
    unexpected.length = 0;
    handlers.resetTo(defaults);
  };
  reset();

  return {
    url,
    calls,
    handlers,
    privateKey,
    kid,
    async signIdToken(claims, signOptions = {}) {
      const alg = signOptions.alg ?? "ES256";
      return new SignJWT(claims).setProtectedHeader({ alg, kid: signOptions.kid ?? kid, typ: "JWT" }).sign(signOptions.key ?? privateKey);
    },
    assertNoUnexpectedCalls() {
      const made = unexpected.splice(0);
      if (made.length > 0) throw new Error(`The fake site received unexpected calls: ${made.join(", ")}`);
    },
    assertEveryHandlerUsed() {
      const unused = handlers.unused();
      if (unused.length > 0) throw new Error(`The test set fake-site handlers that were never called: ${unused.join(", ")}`);
    },
    reset,
    callsTo: (path) => calls.filter((call) => call.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** True while a file's beforeEach or beforeAll hook runs (Vitest calls them through callSuiteHook), async parts included. */
function setBySharedHook(): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = limit;
  return /\bcallSuiteHook\b/.test(stack);
}

/**
 * The handlers by "METHOD /path", remembering which were set since the last reset and which were called:
 * a handler a test set and the dashboard never called means the test did not test what it says.
 */
class TrackedHandlers extends Map<string, Handler> {
  private readonly setByTest = new Set<string>();
  private readonly called = new Set<string>();

  /**
   * A handler set by the test itself is checked; one set by the file's shared hooks (beforeEach, for
   * every test of a group) is the group's background, which some of its tests never reach.
   */
  override set(key: string, handler: Handler): this {
    if (!setBySharedHook()) this.setByTest.add(key);
    else this.setByTest.delete(key);
    return super.set(key, handler);
  }

  /** A handler the test withdraws itself (a trap that must stay unreached, say) is no longer checked. */
  override delete(key: string): boolean {
    this.setByTest.delete(key);
    return super.delete(key);
  }

  resetTo(defaults: ReadonlyMap<string, Handler>): void {
    this.clear();
    for (const [key, handler] of defaults) super.set(key, handler);
    this.setByTest.clear();
    this.called.clear();
  }

  /** The handler of `key`, marked as called. */
  use(key: string): Handler | undefined {
    this.called.add(key);
    return this.get(key);
  }

  unused(): string[] {
    return [...this.setByTest].filter((key) => !this.called.has(key));
  }
}

/**
 * The fake site for a test file: started before its tests, reset before each one to its discovery and
 * JWKS handlers with no calls recorded (nothing a test set leaks into the next), checked after each one
 * (a call without a handler, or a handler set and never called, fails the test), closed after the last.
 * Use it at the top level of the file, before the file's own hooks.
 */
export function setUpFakeSite(options: { idTokens?: boolean } = {}): FakeSite {
  let started: FakeSite | undefined;
  const site = (): FakeSite => {
    if (!started) throw new Error("The fake site starts in beforeAll: use it inside hooks and tests.");
    return started;
  };
  beforeAll(async () => {
    started = await startFakeSite(options);
  });
  beforeEach(() => site().reset());
  afterEach(() => {
    site().assertNoUnexpectedCalls();
    site().assertEveryHandlerUsed();
  });
  afterAll(async () => started?.close());
  return {
    get url() {
      return site().url;
    },
    get calls() {
      return site().calls;
    },
    get handlers() {
      return site().handlers;
    },
    get privateKey() {
      return site().privateKey;
    },
    get kid() {
      return site().kid;
    },
    signIdToken: (claims, signOptions) => site().signIdToken(claims, signOptions),
    assertNoUnexpectedCalls: () => site().assertNoUnexpectedCalls(),
    assertEveryHandlerUsed: () => site().assertEveryHandlerUsed(),
    reset: () => site().reset(),
    callsTo: (path) => site().callsTo(path),
    close: () => site().close(),
  };
}
