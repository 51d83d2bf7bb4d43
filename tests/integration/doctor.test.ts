/**
 * The doctor against real HTTP: the sandbox site (as is and with knobs), and a small site served here whose
 * documents each test breaks in one way, so that every check is seen to pass on a sound site and to fail
 * (or warn) for its own reason. The CLI runs as a child process for exit codes and output.
 */
import { execFile } from "node:child_process";
import type { Server } from "node:http";
import path from "node:path";

import { serve } from "@hono/node-server";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { checkSiteUrl } from "@/scripts/doctor/checks";
import type { CheckId, CheckResult } from "@/scripts/doctor/checks";
import type { JsonObject } from "@/scripts/doctor/probe";
import { operatorSettingsNote, runDoctor } from "@/scripts/doctor/run";
import type { DoctorReport } from "@/scripts/doctor/run";
import { MCP_SERVER_NAME, openMcpSessionCount } from "@/sandbox/mcp";
import { DASHBOARD_CLIENT_ID } from "@/sandbox/seed";
import { PUBLIC_MCP_TOOLS, startSandbox } from "@/sandbox/server";
import type { RunningSandbox, SandboxOptions } from "@/sandbox/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function runCli(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/doctor.ts", ...args], { cwd: ROOT, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function check(report: DoctorReport, id: CheckId): CheckResult {
  const found = report.checks.find((result) => result.id === id);
  if (!found) throw new Error(`the report has no check ${id}: ${report.checks.map((result) => result.id).join(", ")}`);
  return found;
}

function statuses(report: DoctorReport): Record<string, string> {
  return Object.fromEntries(report.checks.map((result) => [result.id, result.status]));
}

async function withSandbox<T>(options: SandboxOptions, run: (sandbox: RunningSandbox) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox({ port: 0, ...options });
  try {
    return await run(sandbox);
  } finally {
    await sandbox.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// A small site served here: sound by default; each test changes one thing.
// ---------------------------------------------------------------------------------------------------------

type Route = (request: Request) => Response | Promise<Response>;

interface TestSite {
  url: string;
  /** Applied to both discovery documents (the dashboard merges them). */
  metadata: (document: JsonObject) => void;
  /** Applied to the authorization-server metadata only. */
  authorizationServerOnly: (document: JsonObject) => void;
  routes: Map<string, Route>;
  mcp: boolean;
  paths: string[];
}

const TEST_CLIENT_ID = "doctor-test-client";
const TEST_REDIRECT_URI = "http://localhost:3000/api/auth/callback";

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

async function handleMcp(request: Request): Promise<Response> {
  // Stateless: a fresh server and transport for every request.
  const server = new McpServer({ name: "test-academy-mcp", version: "2.1.0" });
  server.registerTool("search_courses", { description: "Search the public catalog" }, () => ({ content: [{ type: "text", text: "[]" }] }));
  server.registerTool("get_course", { description: "One public course" }, () => ({ content: [{ type: "text", text: "{}" }] }));
  server.registerTool("list_events", { description: "Public events" }, () => ({ content: [{ type: "text", text: "[]" }] }));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request);
}

let testSite: TestSite;
let testServer: Server;
let publicJwk: JsonObject;

function soundMetadata(issuer: string): JsonObject {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/api/oauth/token`,
    userinfo_endpoint: `${issuer}/api/oauth/userinfo`,
    revocation_endpoint: `${issuer}/api/oauth/revoke`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    id_token_signing_alg_values_supported: ["ES256"],
    scopes_supported: ["openid", "profile", "email", "account:read"],
    response_types_supported: ["code"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_post"],
    authorization_response_iss_parameter_supported: true,
  };
}

function soundRoutes(site: TestSite): Map<string, Route> {
  const metadata = (extra: (document: JsonObject) => void) => () => {
    const document = soundMetadata(site.url);
    site.metadata(document);
    extra(document);
    return json(document);
  };
  return new Map<string, Route>([
    ["/.well-known/oauth-authorization-server", metadata((document) => site.authorizationServerOnly(document))],
    ["/.well-known/openid-configuration", metadata(() => undefined)],
    ["/.well-known/oauth-protected-resource", () => json({ resource: site.url, authorization_servers: [site.url] })],
    ["/.well-known/jwks.json", () => json({ keys: [publicJwk] })],
    [
      "/account/graphql",
      () => json({ error: "invalid_token", error_description: "No token" }, 401, { "www-authenticate": 'Bearer error="invalid_token"' }),
    ],
    ["/api/oauth/token", () => json({ error: "invalid_grant", error_description: "Unknown refresh token" }, 400)],
    [
      "/oauth/authorize",
      (request) => {
        const query = new URL(request.url).searchParams;
        if (query.get("client_id") !== TEST_CLIENT_ID || query.get("redirect_uri") !== TEST_REDIRECT_URI) {
          return new Response("<h1>Cannot continue to sign in</h1>", { status: 400, headers: { "content-type": "text/html" } });
        }
        return new Response("<h1>Sign in</h1>", { status: 200, headers: { "content-type": "text/html" } });
      },
    ],
  ]);
}

function resetTestSite(): void {
  testSite.metadata = () => undefined;
  testSite.authorizationServerOnly = () => undefined;
  testSite.routes = soundRoutes(testSite);
  testSite.mcp = true;
  testSite.paths = [];
}

beforeAll(async () => {
  const { publicKey } = await generateKeyPair("ES256");
  publicJwk = { ...(await exportJWK(publicKey)), kid: "test-key-1", use: "sig", alg: "ES256" };
  testSite = { url: "", metadata: () => undefined, authorizationServerOnly: () => undefined, routes: new Map(), mcp: true, paths: [] };
  testServer = await new Promise<Server>((resolve) => {
    const server = serve(
      {
        hostname: "127.0.0.1",
        port: 0,
        fetch: async (request: Request) => {
          const { pathname } = new URL(request.url);
          testSite.paths.push(pathname);
          if (pathname === "/mcp") return testSite.mcp ? handleMcp(request) : json({ error: "not_found" }, 404);
          const route = testSite.routes.get(pathname);
          return route ? route(request) : json({ error: "not_found" }, 404);
        },
      },
      () => resolve(server),
    ) as Server;
  });
  const address = testServer.address();
  if (typeof address !== "object" || address === null) throw new Error("no address");
  testSite.url = `http://127.0.0.1:${address.port}`;
  resetTestSite();
});

afterEach(() => resetTestSite());

afterAll(async () => {
  testServer.closeAllConnections();
  await new Promise<void>((resolve) => testServer.close(() => resolve()));
});

const doctorOnTestSite = (options: { clientId?: string; timeoutMs?: number } = {}) =>
  runDoctor({ site: testSite.url, timeoutMs: 3_000, ...options });

// ---------------------------------------------------------------------------------------------------------

describe("doctor against the sandbox site", () => {
  it("passes as a child process: exit code 0, one PASS/WARN line per check, the redirect URI, no token endpoint touched", async () => {
    await withSandbox({}, async (sandbox) => {
      const result = await runCli(["--site", sandbox.url]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const checkLines = result.stdout.split("\n").filter((line) => /^(PASS|WARN|FAIL) /.test(line));
      expect(checkLines.length).toBe(18);
      expect(checkLines.filter((line) => line.startsWith("FAIL"))).toEqual([]);
      expect(result.stdout).toContain("PASS  Authorization server metadata: issuer is " + sandbox.url);
      expect(result.stdout).toContain("PASS  id_token: id_tokens verified (ES256)");
      expect(result.stdout).toMatch(/^(PASS|WARN) {2}MCP server: /m);
      expect(result.stdout).toContain("INFO  Redirect URI to register: http://localhost:3000/api/auth/callback");
      expect(result.stdout).not.toMatch(/\bat .+\(.+:\d+:\d+\)/); // no stack trace
      const endpoints = new Set(sandbox.requests().map((entry) => entry.endpoint));
      expect(endpoints.has("discovery")).toBe(true);
      expect(endpoints.has("jwks")).toBe(true);
      expect(endpoints.has("graphql")).toBe(true);
      for (const tokenEndpoint of ["token", "userinfo", "revoke", "introspect", "register"] as const)
        expect(endpoints.has(tokenEndpoint)).toBe(false);
    });
  });

  it.each([
    { writes: "leaves out", writesNulls: false, contentCoding: null },
    // A serializer that writes every field (Jackson's default): `"end_session_endpoint": null`, `"jwks_uri": null`…
    { writes: "writes null for", writesNulls: true, contentCoding: null },
    // A web server in front of the site that compresses what it may (RFC 9110 section 8.4): the doctor's
    // fetch asks for gzip and deflate.
    { writes: "leaves out", writesNulls: false, contentCoding: "gzip" },
  ] as const)(
    "judges every check of the sound sandbox, which $writes what it does not offer, answers in $contentCoding (MCP served or not yet)",
    async ({ writesNulls, contentCoding }) => {
      await withSandbox({ knobs: { writesNulls, contentCoding } }, async (sandbox) => {
        const report = await runDoctor({ site: sandbox.url, timeoutMs: 5_000 });
        const { mcp, ...rest } = statuses(report);
        expect(rest).toEqual({
          "site-url": "PASS",
          "authorization-server-metadata": "PASS",
          "openid-configuration": "PASS",
          "pkce-s256": "PASS",
          "client-secret-post": "PASS",
          "account-read-scope": "PASS",
          "id-token": "PASS",
          "userinfo-endpoint": "PASS",
          "iss-parameter": "PASS",
          "revocation-endpoint": "PASS",
          "granted-scopes": "PASS",
          "pushed-authorization-requests": "PASS",
          dpop: "PASS",
          "sign-in-languages": "PASS",
          "endpoint-origins": "PASS",
          "protected-resource-metadata": "PASS",
          "account-api": "PASS",
        });
        expect(["PASS", "WARN"]).toContain(mcp);
        expect(check(report, "id-token").detail).toMatch(/id_tokens verified \(ES256\); the key set has 1 EC P-256 key with a kid/);
        // What the sandbox does not offer by default reads as not offered, whether left out or written null.
        expect(check(report, "pushed-authorization-requests").detail).toMatch(/^not offered/);
        expect(check(report, "dpop").detail).toMatch(/^not offered/);
        expect(check(report, "sign-in-languages").detail).toMatch(/^not listed/);
      });
    },
  );

  it("ends the MCP session it was given, at a server that keeps sessions and answers with event streams", async () => {
    await withSandbox({ knobs: { mcpSessions: true, mcpEventStream: true } }, async (sandbox) => {
      sandbox.setMcpConnectionsBeta(true);
      const report = await runDoctor({ site: sandbox.url, timeoutMs: 5_000 });
      expect(check(report, "mcp")).toMatchObject({ status: "PASS", detail: expect.stringContaining(MCP_SERVER_NAME) as string });
      expect(
        sandbox
          .requests()
          .filter((entry) => entry.endpoint === "mcp" && entry.method === "DELETE")
          .map((entry) => entry.status),
      ).toEqual([200]);
      expect(openMcpSessionCount(sandbox.state)).toBe(0);
    });
  });

  it.each([0, 1, 2])(
    "counts every tool of an MCP server that lists them a page at a time (page size %s, 0: all at once)",
    async (pageSize) => {
      await withSandbox({ knobs: { mcpToolsPageSize: pageSize } }, async (sandbox) => {
        sandbox.setMcpConnectionsBeta(true);
        const report = await runDoctor({ site: sandbox.url, timeoutMs: 5_000 });
        expect(check(report, "mcp")).toMatchObject({
          status: "PASS",
          detail: expect.stringContaining(`answers anonymously with ${PUBLIC_MCP_TOOLS.length} tools`) as string,
        });
      });
    },
  );

  it("says when the MCP server loses the session it has just given, and what the operator can do", async () => {
    await withSandbox({ knobs: { mcpSessions: true, mcpSessionsLost: 1 } }, async (sandbox) => {
      sandbox.setMcpConnectionsBeta(true);
      const report = await runDoctor({ site: sandbox.url, timeoutMs: 5_000 });
      expect(check(report, "mcp")).toMatchObject({
        status: "WARN",
        detail: expect.stringMatching(/lost the session it had just given .*send each session to one instance/) as string,
      });
    });
  });

  it("accepts a site URL with a trailing slash as its origin", async () => {
    await withSandbox({}, async (sandbox) => {
      const report = await runDoctor({ site: `${sandbox.url}/`, timeoutMs: 5_000 });
      expect(report.site).toBe(sandbox.url);
      expect(check(report, "authorization-server-metadata").status).toBe("PASS");
    });
  });

  it.each([false, true])(
    "reports the UserInfo fallback when the site issues no id_token (idToken: false, writesNulls: %s)",
    async (writesNulls) => {
      await withSandbox({ knobs: { idToken: false, writesNulls } }, async (sandbox) => {
        const report = await runDoctor({ site: sandbox.url, timeoutMs: 5_000 });
        expect(check(report, "id-token")).toMatchObject({
          status: "PASS",
          detail: expect.stringContaining("UserInfo fallback (no id_token)") as string,
        });
        expect(check(report, "userinfo-endpoint").status).toBe("PASS");
        expect(sandbox.requests().some((entry) => entry.endpoint === "jwks")).toBe(false);
      });
    },
  );

  it("fails with exit code 1 when discovery answers 503", async () => {
    await withSandbox({ knobs: { failures: { discovery: { mode: "status", status: 503 } } } }, async (sandbox) => {
      const result = await runCli(["--site", sandbox.url]);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^FAIL {2}Authorization server metadata: .*oauth-authorization-server: answered HTTP 503/m);
      expect(result.stdout).toMatch(/^WARN {2}OpenID configuration: .*answered HTTP 503/m);
      expect(result.stdout).toContain("the checks of its contents were skipped");
      expect(result.stdout).not.toContain("PKCE S256");
      expect(result.stdout).toContain("1 failure.");
    });
  });

  it("fails when discovery is malformed, and prints JSON with --json", async () => {
    await withSandbox({ knobs: { failures: { discovery: { mode: "malformed" } } } }, async (sandbox) => {
      const result = await runCli(["--site", sandbox.url, "--json"]);
      expect(result.code).toBe(1);
      const output = JSON.parse(result.stdout) as {
        ok: boolean;
        site: string;
        checks: CheckResult[];
        summary: { fail: number };
        info: string[];
      };
      expect(output.ok).toBe(false);
      expect(output.site).toBe(sandbox.url);
      expect(output.summary.fail).toBeGreaterThanOrEqual(1);
      expect(output.checks.find((result) => result.id === "authorization-server-metadata")).toMatchObject({
        status: "FAIL",
        title: "Authorization server metadata",
        detail: expect.stringContaining("malformed JSON") as string,
      });
      expect(output.info).toEqual([
        "Redirect URI to register: http://localhost:3000/api/auth/callback",
        operatorSettingsNote("http://localhost:3000"),
      ]);
    });
  });

  it("fails when discovery redirects (the dashboard does not follow redirects for metadata)", async () => {
    await withSandbox({ knobs: { failures: { discovery: { mode: "redirect" } } } }, async (sandbox) => {
      const report = await runDoctor({ site: sandbox.url, timeoutMs: 5_000 });
      expect(check(report, "authorization-server-metadata")).toMatchObject({
        status: "FAIL",
        detail: expect.stringContaining("a redirect") as string,
      });
    });
  });

  it("bounds every request by --timeout-ms", async () => {
    await withSandbox({ knobs: { latencyMs: 3_000 } }, async (sandbox) => {
      const started = Date.now();
      const report = await runDoctor({ site: sandbox.url, timeoutMs: 300 });
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(check(report, "authorization-server-metadata")).toMatchObject({
        status: "FAIL",
        detail: expect.stringContaining("no answer within 300 ms") as string,
      });
      expect(check(report, "account-api")).toMatchObject({
        status: "FAIL",
        detail: expect.stringContaining("no answer within 300 ms") as string,
      });
      expect(check(report, "mcp").status).toBe("WARN");
    });
  });

  it("passes the seeded client with the default app URL, and fails it with another app URL (exit code 1)", async () => {
    await withSandbox({}, async (sandbox) => {
      const right = await runDoctor({ site: sandbox.url, clientId: DASHBOARD_CLIENT_ID, timeoutMs: 5_000 });
      expect(check(right, "client-registration")).toMatchObject({
        status: "PASS",
        detail: expect.stringContaining("sign-in page") as string,
      });
      expect(sandbox.requests().some((entry) => entry.endpoint === "authorize" && entry.status === 200)).toBe(true);

      const wrong = await runCli(["--site", sandbox.url, "--client-id", DASHBOARD_CLIENT_ID, "--app-url", "http://localhost:4000"]);
      expect(wrong.code).toBe(1);
      expect(wrong.stdout).toMatch(/^FAIL {2}Client and redirect URI: the site does not know this client\/redirect URI/m);
      expect(wrong.stdout).toContain("INFO  Redirect URI to register: http://localhost:4000/api/auth/callback");
    });
  });

  it("fails an unknown client_id", async () => {
    await withSandbox({}, async (sandbox) => {
      const report = await runDoctor({ site: sandbox.url, clientId: "no-such-client", timeoutMs: 5_000 });
      expect(check(report, "client-registration")).toMatchObject({
        status: "FAIL",
        detail: expect.stringContaining("does not know this client") as string,
      });
    });
  });

  it("passes a dashboard registered for another app URL when --app-url matches", async () => {
    await withSandbox({ dashboardRedirectUris: ["https://dashboard.example.com/api/auth/callback"] }, async (sandbox) => {
      const report = await runDoctor({
        site: sandbox.url,
        clientId: DASHBOARD_CLIENT_ID,
        appUrl: "https://dashboard.example.com",
        timeoutMs: 5_000,
      });
      expect(check(report, "client-registration").status).toBe("PASS");
      expect(report.info).toEqual([
        "Redirect URI to register: https://dashboard.example.com/api/auth/callback",
        expect.stringContaining(
          "METRICS_PORT (bound to METRICS_HOST, default 127.0.0.1) or METRICS_TOKEN for https://dashboard.example.com/api/metrics",
        ),
      ]);
    });
  });
});

describe("doctor against a site served by the test", () => {
  it("passes every check on the sound site, MCP included (server name and tool count)", async () => {
    const report = await doctorOnTestSite({ clientId: TEST_CLIENT_ID });
    expect(report.checks.filter((result) => result.status !== "PASS")).toEqual([]);
    expect(report.checks.map((result) => result.id)).toEqual([
      "site-url",
      "authorization-server-metadata",
      "openid-configuration",
      "pkce-s256",
      "client-secret-post",
      "account-read-scope",
      "id-token",
      "userinfo-endpoint",
      "iss-parameter",
      "revocation-endpoint",
      "granted-scopes",
      "pushed-authorization-requests",
      "dpop",
      "sign-in-languages",
      "endpoint-origins",
      "protected-resource-metadata",
      "account-api",
      "mcp",
      "client-registration",
      "refresh-refusal",
    ]);
    expect(check(report, "mcp").detail).toBe('"test-academy-mcp" 2.1.0 answers anonymously with 3 tools');
    expect(testSite.paths).toContain("/mcp");
  });

  it("prints each FAIL line for a site with a wrong issuer, no S256, no client_secret_post, no account:read, no revocation", async () => {
    testSite.metadata = (document) => {
      document.issuer = "https://other.example.com";
      document.code_challenge_methods_supported = ["plain"];
      delete document.token_endpoint_auth_methods_supported;
      document.scopes_supported = ["openid", "profile", "email"];
      delete document.revocation_endpoint;
    };
    const result = await runCli(["--site", testSite.url, "--timeout-ms", "3000"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'FAIL  Authorization server metadata: issuer is "https://other.example.com" but must be exactly ' + testSite.url,
    );
    expect(result.stdout).toContain('FAIL  PKCE S256: code_challenge_methods_supported is ["plain"], without S256');
    expect(result.stdout).toContain(
      "FAIL  Client authentication: token_endpoint_auth_methods_supported is not listed, " +
        "which means client_secret_basic only (RFC 8414 section 2)",
    );
    expect(result.stdout).toContain("FAIL  Scope account:read: scopes_supported lacks account:read");
    expect(result.stdout).toContain(
      'FAIL  Revocation endpoint: discovery lists no revocation_endpoint; the Settings page\'s "Revoke access" needs it',
    );
    expect(result.stdout).toMatch(/5 failures\./);
  });

  // One change to the sound site per case: the check named must report the status given, for the reason given.
  const cases: Array<{
    name: string;
    id: CheckId;
    status: "WARN" | "FAIL" | "PASS";
    detail: RegExp;
    arrange: () => void;
    clientId?: string;
  }> = [
    {
      name: "issuer with a trailing slash",
      id: "authorization-server-metadata",
      status: "FAIL",
      detail: /issuer is ".*\/" but must be exactly/,
      arrange: () => (testSite.authorizationServerOnly = (document) => (document.issuer = `${testSite.url}/`)),
    },
    {
      name: "metadata served as HTML",
      id: "authorization-server-metadata",
      status: "FAIL",
      detail: /"text\/html" instead of application\/json/,
      arrange: () =>
        testSite.routes.set(
          "/.well-known/oauth-authorization-server",
          () => new Response("<html></html>", { headers: { "content-type": "text/html" } }),
        ),
    },
    {
      name: "metadata without a token endpoint",
      id: "authorization-server-metadata",
      status: "FAIL",
      detail: /lacks token_endpoint/,
      arrange: () => (testSite.metadata = (document) => delete document.token_endpoint),
    },
    {
      name: "no OpenID configuration",
      id: "openid-configuration",
      status: "WARN",
      detail: /openid-configuration: answered HTTP 404; the dashboard uses the authorization-server metadata and UserInfo instead/,
      arrange: () => testSite.routes.delete("/.well-known/openid-configuration"),
    },
    {
      name: "OpenID configuration with another issuer",
      id: "openid-configuration",
      status: "WARN",
      detail: /issuer is "https:\/\/elsewhere.example.com", not .*; the dashboard ignores this document/,
      arrange: () =>
        testSite.routes.set("/.well-known/openid-configuration", () =>
          json({ ...soundMetadata(testSite.url), issuer: "https://elsewhere.example.com" }),
        ),
    },
    {
      name: "no code_challenge_methods_supported",
      id: "pkce-s256",
      status: "FAIL",
      detail: /code_challenge_methods_supported is not listed/,
      arrange: () => (testSite.metadata = (document) => delete document.code_challenge_methods_supported),
    },
    {
      name: "client_secret_basic only",
      id: "client-secret-post",
      status: "FAIL",
      detail: /is \["none", "client_secret_basic"\], without client_secret_post/,
      arrange: () => (testSite.metadata = (document) => (document.token_endpoint_auth_methods_supported = ["none", "client_secret_basic"])),
    },
    {
      name: "no scopes_supported",
      id: "account-read-scope",
      status: "WARN",
      detail: /scopes_supported is not listed, so account:read cannot be confirmed/,
      arrange: () => (testSite.metadata = (document) => delete document.scopes_supported),
    },
    {
      name: "id_tokens signed with RS256",
      id: "id-token",
      status: "FAIL",
      detail: /signed with \["RS256"\]; the dashboard accepts ES256 only/,
      arrange: () => (testSite.metadata = (document) => (document.id_token_signing_alg_values_supported = ["RS256"])),
    },
    {
      name: "a key set without an EC P-256 key",
      id: "id-token",
      status: "FAIL",
      detail: /has no EC P-256 signing key with a kid/,
      arrange: () =>
        testSite.routes.set("/.well-known/jwks.json", () => json({ keys: [{ kty: "RSA", kid: "rsa-1", n: "AQAB", e: "AQAB" }] })),
    },
    {
      name: "an EC key without a kid",
      id: "id-token",
      status: "FAIL",
      detail: /has no EC P-256 signing key with a kid/,
      arrange: () => testSite.routes.set("/.well-known/jwks.json", () => json({ keys: [{ ...publicJwk, kid: undefined }] })),
    },
    {
      name: "an unreachable key set",
      id: "id-token",
      status: "FAIL",
      detail: /the key set at .*jwks\.json: answered HTTP 404/,
      arrange: () => testSite.routes.delete("/.well-known/jwks.json"),
    },
    {
      name: "jwks_uri without the algorithm list",
      id: "id-token",
      status: "WARN",
      detail: /^UserInfo fallback: discovery lists jwks_uri but not id_token_signing_alg_values_supported/,
      arrange: () => (testSite.metadata = (document) => delete document.id_token_signing_alg_values_supported),
    },
    {
      name: "the algorithm list without jwks_uri",
      id: "id-token",
      status: "WARN",
      detail: /^UserInfo fallback: discovery lists id_token_signing_alg_values_supported but not jwks_uri/,
      arrange: () => (testSite.metadata = (document) => delete document.jwks_uri),
    },
    {
      name: "neither jwks_uri nor the algorithm list",
      id: "id-token",
      status: "PASS",
      detail: /^UserInfo fallback \(no id_token\)/,
      arrange: () =>
        (testSite.metadata = (document) => {
          delete document.jwks_uri;
          delete document.id_token_signing_alg_values_supported;
        }),
    },
    {
      name: "id_token fields only in the OpenID configuration (merged as the dashboard does)",
      id: "id-token",
      status: "PASS",
      detail: /^id_tokens verified \(ES256\)/,
      arrange: () =>
        (testSite.authorizationServerOnly = (document) => {
          delete document.jwks_uri;
          delete document.id_token_signing_alg_values_supported;
        }),
    },
    {
      name: "no userinfo_endpoint",
      id: "userinfo-endpoint",
      status: "FAIL",
      detail: /lists no userinfo_endpoint/,
      arrange: () => (testSite.metadata = (document) => delete document.userinfo_endpoint),
    },
    {
      name: "no RFC 9207 iss parameter",
      id: "iss-parameter",
      status: "WARN",
      detail: /cannot detect mix-up attacks/,
      arrange: () => (testSite.metadata = (document) => (document.authorization_response_iss_parameter_supported = false)),
    },
    {
      name: "no revocation_endpoint",
      id: "revocation-endpoint",
      status: "FAIL",
      detail: /Revoke access/,
      arrange: () => (testSite.metadata = (document) => delete document.revocation_endpoint),
    },
    {
      name: "a token endpoint on another origin",
      id: "endpoint-origins",
      status: "WARN",
      detail: /token_endpoint at "https:\/\/tokens\.example".*SITE_ENDPOINT_ORIGINS/,
      arrange: () => (testSite.metadata = (document) => (document.token_endpoint = "https://tokens.example/token")),
    },
    {
      name: "no protected-resource metadata",
      id: "protected-resource-metadata",
      status: "WARN",
      detail: /oauth-protected-resource: answered HTTP 404/,
      arrange: () => testSite.routes.delete("/.well-known/oauth-protected-resource"),
    },
    {
      name: "protected-resource metadata naming another resource",
      id: "protected-resource-metadata",
      status: "FAIL",
      detail: /resource is "https:\/\/api.example.com" but must be exactly/,
      arrange: () =>
        testSite.routes.set("/.well-known/oauth-protected-resource", () =>
          json({ resource: "https://api.example.com", authorization_servers: [testSite.url] }),
        ),
    },
    {
      name: "protected-resource metadata naming another authorization server",
      id: "protected-resource-metadata",
      status: "FAIL",
      detail: /authorization_servers is .*auth.example.com.* and does not include the issuer/,
      arrange: () =>
        testSite.routes.set("/.well-known/oauth-protected-resource", () =>
          json({ resource: testSite.url, authorization_servers: ["https://auth.example.com"] }),
        ),
    },
    {
      name: "no Account API",
      id: "account-api",
      status: "FAIL",
      detail: /answered HTTP 404: the site has no Account API there/,
      arrange: () => testSite.routes.delete("/account/graphql"),
    },
    {
      name: "an Account API answering anonymous requests",
      id: "account-api",
      status: "FAIL",
      detail: /gets HTTP 200; the Account API must refuse requests without a token/,
      arrange: () => testSite.routes.set("/account/graphql", () => json({ data: { __typename: "Query" } })),
    },
    {
      name: "an Account API answering 401 without a challenge",
      id: "account-api",
      status: "WARN",
      detail: /401 but no WWW-Authenticate: Bearer challenge/,
      arrange: () => testSite.routes.set("/account/graphql", () => json({ error: "invalid_token" }, 401)),
    },
    ...["UNAUTHENTICATED", "AUTH_NOT_AUTHENTICATED"].map((code) => ({
      name: `an Account API refusing with a GraphQL error coded ${code}`,
      id: "account-api" as const,
      status: "WARN" as const,
      detail: /HTTP 200 with a GraphQL error saying it is not signed in .* instead of 401 .*cannot tell a token meant for another resource/,
      arrange: () =>
        testSite.routes.set("/account/graphql", () =>
          json({ data: null, errors: [{ message: "You must be signed in", extensions: { code } }] }),
        ),
    })),
    {
      name: "an Account API redirecting to a login page",
      id: "account-api",
      status: "FAIL",
      detail: /HTTP 302 \(a redirect to "\/login"\)/,
      arrange: () => testSite.routes.set("/account/graphql", () => new Response(null, { status: 302, headers: { location: "/login" } })),
    },
    {
      name: "no MCP server",
      id: "mcp",
      status: "WARN",
      detail: /\/mcp: answered HTTP 404; MCP is optional for the dashboard/,
      arrange: () => (testSite.mcp = false),
    },
    {
      name: "an authorization endpoint that does not know the client",
      id: "client-registration",
      status: "FAIL",
      detail: /the site does not know this client\/redirect URI: client "someone-else" .* gets an error page \(HTTP 400\)/,
      clientId: "someone-else",
      arrange: () => undefined,
    },
    {
      name: "an authorization endpoint that redirects to its sign-in page",
      id: "client-registration",
      status: "PASS",
      detail: /redirects to sign in/,
      clientId: TEST_CLIENT_ID,
      arrange: () =>
        testSite.routes.set("/oauth/authorize", () => new Response(null, { status: 302, headers: { location: "/users/sign_in" } })),
    },
    {
      name: "an operator client refused account:read",
      id: "client-registration",
      status: "FAIL",
      detail: /knows client "doctor-test-client" but refuses the scopes .*\(invalid_scope\): it must be a member client/,
      clientId: TEST_CLIENT_ID,
      arrange: () =>
        testSite.routes.set(
          "/oauth/authorize",
          () => new Response(null, { status: 302, headers: { location: `${TEST_REDIRECT_URI}?error=invalid_scope&state=x` } }),
        ),
    },
    {
      name: "an authorization endpoint failing",
      id: "client-registration",
      status: "FAIL",
      detail: /answered HTTP 500/,
      clientId: TEST_CLIENT_ID,
      arrange: () => testSite.routes.set("/oauth/authorize", () => new Response("oops", { status: 500 })),
    },
  ];

  it.each(cases)("$id: $status for $name", async ({ id, status, detail, arrange, clientId }) => {
    arrange();
    const report = await doctorOnTestSite(clientId === undefined ? {} : { clientId });
    const result = check(report, id);
    expect(result.status).toBe(status);
    expect(result.detail).toMatch(detail);
    // The change breaks only what it should: the other checks of the sound site still pass (ids that
    // depend on the same document are allowed to differ).
    expect(
      report.checks.filter((other) => other.id !== id && other.status === "FAIL" && other.id !== "authorization-server-metadata"),
    ).toEqual([]);
  });

  it("sends the sign-in request the dashboard would send, with no credential", async () => {
    let seen: URLSearchParams | undefined;
    let authorization: string | null = "unset";
    testSite.routes.set("/oauth/authorize", (request) => {
      seen = new URL(request.url).searchParams;
      authorization = request.headers.get("authorization");
      return new Response("<h1>Sign in</h1>", { status: 200, headers: { "content-type": "text/html" } });
    });
    await doctorOnTestSite({ clientId: TEST_CLIENT_ID });
    expect(authorization).toBeNull();
    expect(seen?.get("response_type")).toBe("code");
    expect(seen?.get("client_id")).toBe(TEST_CLIENT_ID);
    expect(seen?.get("redirect_uri")).toBe(TEST_REDIRECT_URI);
    expect(seen?.get("code_challenge_method")).toBe("S256");
    expect(seen?.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(seen?.get("scope")).toBe("openid profile email account:read");
    expect(seen?.get("state")).toBeTruthy();
    expect(seen?.get("nonce")).toBeTruthy();
    expect(seen?.get("resource")).toBe(testSite.url);
  });

  it("does not probe the authorization endpoint without --client-id", async () => {
    const report = await doctorOnTestSite();
    expect(report.checks.some((result) => result.id === "client-registration")).toBe(false);
    expect(testSite.paths).not.toContain("/oauth/authorize");
    expect(report.info).toEqual([
      "Redirect URI to register: http://localhost:3000/api/auth/callback",
      operatorSettingsNote("http://localhost:3000"),
    ]);
  });

  it("shows values from the site escaped, so a site cannot write to the terminal", async () => {
    testSite.authorizationServerOnly = (document) => (document.issuer = "https://evil.example.com/\u001b[2J");
    const report = await doctorOnTestSite();
    const detail = check(report, "authorization-server-metadata").detail;
    expect(detail).not.toContain("\u001b");
    expect(detail).toContain("\\u001b[2J");
  });
});

describe("doctor site URL rules (check 1)", () => {
  it.each([
    ["http://example.com", /must use https \(plain http is accepted only for localhost and 127.0.0.1\)/],
    ["https://example.com/school", /must be an origin only, without path.*\(try https:\/\/example.com\)/],
    ["https://example.com/?x=1", /must be an origin only/],
    ["https://user:pw@example.com", /must be an origin only/],
    ["ftp://example.com", /must use https/],
    ["example.com", /is not a URL/],
  ])("fails %s without making any request", async (site, reason) => {
    const report = await runDoctor({ site, timeoutMs: 500 });
    expect(report.checks).toHaveLength(1);
    expect(report.checks[0]).toMatchObject({ id: "site-url", status: "FAIL", detail: expect.stringMatching(reason) as string });
  });

  it.each([
    ["https://school.example.com", "an https origin"],
    ["https://school.example.com/", "an https origin"],
    ["http://localhost:4000", "a loopback http origin"],
    ["http://127.0.0.1:4000", "a loopback http origin"],
  ])("passes %s", (site, kind) => {
    expect(checkSiteUrl(site)).toMatchObject({ id: "site-url", status: "PASS", detail: expect.stringContaining(kind) as string });
  });

  it("exits 1 for a plain-http site that is not loopback", async () => {
    const result = await runCli(["--site", "http://school.example.com"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL {2}Site URL: "http:\/\/school.example.com" must use https/m);
  });
});

describe("doctor command line", () => {
  it.each([
    [[], /--site is required/],
    [["--site"], /--site/],
    [["--site", "https://example.com", "--bogus"], /Unknown option '--bogus'/],
    [["--site", "https://example.com", "extra"], /positional/],
    [["--site", "https://example.com", "--timeout-ms", "abc"], /--timeout-ms must be a whole number/],
    [["--site", "https://example.com", "--timeout-ms", "0"], /--timeout-ms must be a whole number/],
    [["--site", "https://example.com", "--app-url", "http://dashboard.example.com"], /--app-url: .*must use https/],
    [["--site", "https://example.com", "--client-id", ""], /--client-id must not be empty/],
  ])("exits 2 with the usage for %j", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("Usage: npm run doctor -- --site <url>");
  });

  it("prints the usage with --help and exits 0", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: npm run doctor -- --site <url> [--client-id <id>] [--app-url <url>] [--timeout-ms N] [--json]");
  });
});

describe("doctor: a site that writes its issuer with a trailing slash (Auth0's manner)", () => {
  it("fails the metadata and names SITE_ISSUER; with --issuer it passes; any other --issuer stops at its own check", async () => {
    await withSandbox({ knobs: { issuerTrailingSlash: true, openIdDiscoveryOnly: false } }, async (sandbox) => {
      const slash = `${sandbox.url}/`;
      const plain = await runDoctor({ site: sandbox.url, timeoutMs: 5_000 });
      expect(check(plain, "authorization-server-metadata")).toMatchObject({
        status: "FAIL",
        detail: expect.stringContaining(`set SITE_ISSUER=${slash} (doctor: --issuer ${slash})`) as string,
      });
      expect(check(plain, "protected-resource-metadata").status).toBe("FAIL");

      const named = await runDoctor({ site: sandbox.url, issuer: slash, timeoutMs: 5_000 });
      expect(check(named, "site-issuer").status).toBe("PASS");
      expect(check(named, "authorization-server-metadata")).toMatchObject({ status: "PASS", detail: `issuer is ${slash}` });
      expect(check(named, "openid-configuration").status).toBe("PASS");
      expect(check(named, "protected-resource-metadata").status).toBe("PASS");
      expect(named.checks.filter((result) => result.status === "FAIL")).toEqual([]);

      const other = await runDoctor({ site: sandbox.url, issuer: `${sandbox.url}/oauth2/default`, timeoutMs: 5_000 });
      expect(statuses(other)).toEqual({ "site-url": "PASS", "site-issuer": "FAIL" });
    });
  });

  it("takes --issuer on the command line", async () => {
    await withSandbox({ knobs: { issuerTrailingSlash: true } }, async (sandbox) => {
      const result = await runCli(["--site", sandbox.url, "--issuer", `${sandbox.url}/`, "--json", "--timeout-ms", "5000"]);
      const report = JSON.parse(result.stdout) as { checks: CheckResult[] };
      expect(report.checks.find((result) => result.id === "authorization-server-metadata")?.status).toBe("PASS");
    });
  });
});

describe("doctor: what a second provider taught us (issue 30 item 0)", () => {
  it("reports an OpenID-only site (RFC 8414 document 404) as usable through its OpenID configuration", async () => {
    await withSandbox({ knobs: { openIdDiscoveryOnly: true } }, async (sandbox) => {
      const report = await runDoctor({ site: sandbox.url, timeoutMs: 5_000 });
      expect(check(report, "authorization-server-metadata")).toMatchObject({
        status: "WARN",
        detail: expect.stringContaining("the dashboard uses the OpenID configuration instead") as string,
      });
      // The contents are judged from the OpenID configuration.
      expect(check(report, "pkce-s256").status).toBe("PASS");
      expect(report.checks.filter((result) => result.status === "FAIL")).toEqual([]);
    });
  });

  it.each([
    { refused: "with 400 and no JSON body", knobs: { refreshRefusalWithoutBody: true }, says: "without a JSON error" },
    // GitHub's OAuth apps' manner, which the dashboard reads as the error it names.
    { refused: "with 200 and its JSON error", knobs: { tokenErrorsWith200: true }, says: "HTTP 200 with a JSON error" },
  ])("reports a refused refresh answered $refused, and one answered as RFC 6749 asks", async ({ knobs, says }) => {
    await withSandbox({ knobs }, async (sandbox) => {
      const report = await runDoctor({ site: sandbox.url, timeoutMs: 5_000, clientId: DASHBOARD_CLIENT_ID });
      expect(check(report, "refresh-refusal")).toMatchObject({ status: "WARN", detail: expect.stringContaining(says) as string });
      sandbox.setKnobs({ refreshRefusalWithoutBody: false, tokenErrorsWith200: false });
      const sound = await runDoctor({ site: sandbox.url, timeoutMs: 5_000, clientId: DASHBOARD_CLIENT_ID });
      expect(check(sound, "refresh-refusal").status).toBe("PASS");
    });
  });

  it("warns when a refused refresh is not 400 or 401 (the dashboard would keep a withdrawn session)", async () => {
    testSite.routes.set("/api/oauth/token", () => json({ error: "server_error" }, 500));
    const report = await doctorOnTestSite({ clientId: TEST_CLIENT_ID });
    expect(check(report, "refresh-refusal")).toMatchObject({ status: "WARN", detail: expect.stringContaining("not 400 or 401") as string });
  });

  it("says which scopes the dashboard needs under partial consent, and fails without openid", async () => {
    const sound = await doctorOnTestSite();
    expect(check(sound, "granted-scopes")).toMatchObject({
      status: "PASS",
      detail: expect.stringContaining("openid and account:read") as string,
    });
    testSite.metadata = (document) => {
      document.scopes_supported = ["account:read"];
    };
    const report = await doctorOnTestSite();
    expect(check(report, "granted-scopes").status).toBe("FAIL");
  });
});

describe("doctor: which of PAR and DPoP the site offers (issue 30 items 1 and 4)", () => {
  it("reports PAR not offered, offered and required on the sandbox", async () => {
    await withSandbox({}, async (sandbox) => {
      const off = await runDoctor({ site: sandbox.url, timeoutMs: 5_000 });
      expect(check(off, "pushed-authorization-requests")).toMatchObject({
        status: "PASS",
        detail: expect.stringMatching(/^not offered/) as string,
      });
      sandbox.setKnobs({ par: "offered" });
      const offered = await runDoctor({ site: sandbox.url, timeoutMs: 5_000 });
      expect(check(offered, "pushed-authorization-requests")).toMatchObject({
        status: "PASS",
        detail: expect.stringMatching(/^offered/) as string,
      });
      sandbox.setKnobs({ par: "required" });
      const required = await runDoctor({ site: sandbox.url, timeoutMs: 5_000 });
      expect(check(required, "pushed-authorization-requests")).toMatchObject({
        status: "PASS",
        detail: expect.stringMatching(/^required/) as string,
      });
    });
  });

  it("reports DPoP not offered, and offered with ES256 on the sandbox", async () => {
    await withSandbox({}, async (sandbox) => {
      expect(check(await runDoctor({ site: sandbox.url, timeoutMs: 5_000 }), "dpop").detail).toMatch(/^not offered/);
      sandbox.setKnobs({ dpop: "offered" });
      expect(check(await runDoctor({ site: sandbox.url, timeoutMs: 5_000 }), "dpop")).toMatchObject({
        status: "PASS",
        detail: expect.stringMatching(/^offered \(ES256\)/) as string,
      });
    });
  });

  it("warns when DPoP is offered without ES256", async () => {
    testSite.metadata = (document) => {
      document.dpop_signing_alg_values_supported = ["PS256"];
    };
    expect(check(await doctorOnTestSite(), "dpop").status).toBe("WARN");
  });

  it("reports the languages of the site's sign-in pages: none listed, both of the dashboard's, one of them, or no list", async () => {
    await withSandbox({}, async (sandbox) => {
      expect(check(await runDoctor({ site: sandbox.url, timeoutMs: 5_000 }), "sign-in-languages")).toMatchObject({
        status: "PASS",
        detail: expect.stringMatching(/^not listed: the dashboard sends no ui_locales/) as string,
      });
      sandbox.setKnobs({ localizedSignIn: true });
      expect(check(await runDoctor({ site: sandbox.url, timeoutMs: 5_000 }), "sign-in-languages")).toMatchObject({
        status: "PASS",
        detail: expect.stringMatching(/^\["en", "zh-TW"\]: the dashboard asks .*: "en" for en, "zh-TW en" for zh-TW$/) as string,
      });
    });
    testSite.metadata = (document) => {
      document.ui_locales_supported = ["en-GB", "ja"];
    };
    expect(check(await doctorOnTestSite(), "sign-in-languages")).toMatchObject({
      status: "PASS",
      detail: expect.stringMatching(
        /: "en-GB" for en, "zh-TW en-GB" for zh-TW; the site lists none for zh-TW, where it chooses$/,
      ) as string,
    });
    testSite.metadata = (document) => {
      document.ui_locales_supported = "en zh-TW";
    };
    expect(check(await doctorOnTestSite(), "sign-in-languages")).toMatchObject({
      status: "WARN",
      detail: expect.stringContaining("not a list of language tags") as string,
    });
  });

  it("fails a site that requires PAR without listing the endpoint", async () => {
    testSite.metadata = (document) => {
      document.require_pushed_authorization_requests = true;
    };
    const report = await doctorOnTestSite();
    expect(check(report, "pushed-authorization-requests")).toMatchObject({
      status: "FAIL",
      detail: expect.stringContaining("no pushed_authorization_request_endpoint") as string,
    });
  });
});
