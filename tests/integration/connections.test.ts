import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { GET as connectionsRoute } from "@/app/api/account/connections/route";
import { loadSession, saveSession } from "@/lib/session/session";
import type { Connections } from "@/lib/types/account";
import { MCP_SERVER_NAME, MCP_SERVER_VERSION, MEMBER_MCP_TOOLS, PUBLIC_MCP_TOOLS, type RunningSandbox } from "@/sandbox/server";
import { openMcpSessionCount } from "@/sandbox/mcp";
import { inspectMcpServer, probeMcpAnonymously, resetPublicToolsCacheForTests } from "@/lib/site/mcp-client";
import { resetConfigForTests } from "@/lib/config";
import { SITE_CALL_TIMEOUT_MS, withSiteDeadline } from "@/lib/site/site-deadline";

import { captureLog } from "../support/captured-log";
import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { memoryJar } from "../support/memory-jar";
import { RouteBrowser as Browser, signInThroughRoutes } from "../support/route-browser";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandboxForDashboard();
  sandbox.setMcpConnectionsBeta(true);
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  sandbox.resetRequests();
  resetPublicToolsCacheForTests();
});
afterEach(() =>
  sandbox.setKnobs({
    failures: { mcp: null },
    mcpMemberTokenRefusal: "off",
    mcpLocalizedTools: false,
    mcpSessions: false,
    mcpEventStream: false,
    mcpSessionsLost: 0,
    mcpToolsPageSize: 0,
  }),
);

async function signIn(email = "maya@example.com"): Promise<Browser> {
  const browser = new Browser();
  const done = await signInThroughRoutes(browser, { email, returnTo: "/settings" });
  expect(done.status).toBe(303);
  sandbox.resetRequests();
  return browser;
}

async function tokensOf(browser: Browser): Promise<{ accessToken: string; refreshToken: string | null }> {
  const loaded = await loadSession(memoryJar(Object.fromEntries(browser.cookies)));
  if (!loaded) throw new Error("no session in the browser's cookies");
  return { accessToken: loaded.data.accessToken, refreshToken: loaded.data.refreshToken };
}

async function getConnections(
  browser: Browser,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; body: unknown }> {
  const response = browser.absorb(await connectionsRoute(browser.request("/api/account/connections", { headers })));
  const text = await response.text();
  // Personal: never stored by a cache.
  expect(response.headers.get("cache-control")).toBe("no-store");
  return { status: response.status, text, body: JSON.parse(text) as unknown };
}

const mcpRequests = () => sandbox.requests().filter((entry) => entry.endpoint === "mcp");
const refreshGrants = () => sandbox.requests().filter((entry) => entry.grantType === "refresh_token");

describe("GET /api/account/connections", () => {
  it("lists the public and the member's tools with the server's name, and never a token", async () => {
    const browser = await signIn();
    const tokens = await tokensOf(browser);
    const { status, text, body } = await getConnections(browser);
    expect(status).toBe(200);
    const connections = body as Connections;
    expect(connections).toMatchObject({
      available: true,
      mcpUrl: `${sandbox.url}/mcp`,
      serverName: MCP_SERVER_NAME,
      serverVersion: MCP_SERVER_VERSION,
      memberTools: true,
    });
    if (!connections.available) throw new Error("unreachable");
    const access = Object.fromEntries(connections.tools.map((tool) => [tool.name, tool.access]));
    expect(access).toEqual({
      ...Object.fromEntries(PUBLIC_MCP_TOOLS.map((name) => [name, "public"])),
      ...Object.fromEntries(MEMBER_MCP_TOOLS.map((name) => [name, "member"])),
    });
    expect(connections.tools.find((tool) => tool.name === "list_my_orders")).toMatchObject({
      title: "List my orders",
      description: expect.stringContaining("orders") as unknown,
    });
    expect(text).not.toContain(tokens.accessToken);
    if (tokens.refreshToken) expect(text).not.toContain(tokens.refreshToken);
    expect(text).not.toMatch(/access_?token|refresh_?token|bearer/i);
    // The member's listing and the anonymous one: initialize, notifications/initialized, tools/list each.
    expect(mcpRequests().map((entry) => entry.method)).toEqual(Array.from({ length: 6 }, () => "POST"));
    expect(mcpRequests().every((entry) => entry.status === 200 || entry.status === 202)).toBe(true);
    expect(refreshGrants()).toHaveLength(0);
  });

  it.each([
    { server: "answers with event streams", knobs: { mcpEventStream: true }, ends: false },
    { server: "keeps sessions", knobs: { mcpSessions: true }, ends: true },
    { server: "keeps sessions and answers with event streams", knobs: { mcpSessions: true, mcpEventStream: true }, ends: true },
  ])("lists the same tools from a server that $server, and ends each session it opened", async ({ knobs, ends }) => {
    sandbox.setKnobs(knobs);
    const browser = await signIn();
    const sessionsBefore = openMcpSessionCount(sandbox.state);
    const { status, body } = await getConnections(browser);
    expect(status).toBe(200);
    const connections = body as Connections;
    if (!connections.available) throw new Error(`not available: ${JSON.stringify(connections)}`);
    expect(connections.tools.map((tool) => tool.name).sort()).toEqual([...PUBLIC_MCP_TOOLS, ...MEMBER_MCP_TOOLS].sort());
    // MCP Streamable HTTP, session management: the member's listing and the anonymous one each end theirs.
    const deletes = mcpRequests().filter((entry) => entry.method === "DELETE");
    expect(deletes.map((entry) => entry.status)).toEqual(ends ? [200, 200] : []);
    expect(openMcpSessionCount(sandbox.state)).toBe(sessionsBefore);
  });

  // A server with many tools answers tools/list a page at a time (MCP's pagination), at one and two tools a page,
  // stateless and keeping sessions with event streams.
  it.each([
    { pageSize: 1, knobs: {} },
    { pageSize: 2, knobs: {} },
    { pageSize: 1, knobs: { mcpSessions: true, mcpEventStream: true } },
  ])("follows a server that lists its tools $pageSize at a time to the last page ($knobs)", async ({ pageSize, knobs }) => {
    const browser = await signIn();
    const whole = (await getConnections(browser)).body as Connections;
    sandbox.setKnobs({ mcpToolsPageSize: pageSize, ...knobs });
    sandbox.resetRequests();
    const paged = (await getConnections(browser)).body as Connections;
    expect(paged).toEqual(whole);
    expect(paged.available && paged.tools.map((tool) => tool.name)).toEqual([...PUBLIC_MCP_TOOLS, ...MEMBER_MCP_TOOLS]);
    // One tools/list request a page: more requests than the one listing a page would take.
    const toolPages = Math.ceil((PUBLIC_MCP_TOOLS.length + MEMBER_MCP_TOOLS.length) / pageSize);
    expect(mcpRequests().filter((entry) => entry.method === "POST").length).toBeGreaterThanOrEqual(toolPages + 2);
  });

  it("refuses a cursor it did not give, which a client must not make up", async () => {
    sandbox.setKnobs({ mcpToolsPageSize: 2 });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${sandbox.url}/mcp`)));
    const first = await client.listTools();
    expect(first.tools).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    await expect(client.listTools({ cursor: "bm90LWdpdmVu" })).rejects.toThrow(/Invalid cursor/);
    await client.close();
  });

  it("starts a new session when the server has lost the one it gave (404), and lists the tools", async () => {
    sandbox.setKnobs({ mcpSessions: true, mcpSessionsLost: 1 });
    const browser = await signIn();
    const { status, body } = await getConnections(browser);
    expect(status).toBe(200);
    const connections = body as Connections;
    if (!connections.available) throw new Error(`not available: ${JSON.stringify(connections)}`);
    expect(connections.tools.map((tool) => tool.name).sort()).toEqual([...PUBLIC_MCP_TOOLS, ...MEMBER_MCP_TOOLS].sort());
    expect(mcpRequests().filter((entry) => entry.status === 404)).toHaveLength(1);
    expect(openMcpSessionCount(sandbox.state)).toBe(0);
  });

  it("calls a server that loses every session unreachable, never 'not offered', for the member and the anonymous probe", async () => {
    sandbox.setKnobs({ mcpSessions: true, mcpSessionsLost: 2 });
    expect(await inspectMcpServer(null)).toEqual({ available: false, reason: "unreachable" });
    sandbox.setKnobs({ mcpSessionsLost: 2 });
    expect(await probeMcpAnonymously()).toEqual({ on: false, reason: "unreachable" });
    // Two tries each, no more: initialize, then the request naming the session, answered 404.
    expect(mcpRequests().filter((entry) => entry.status === 404)).toHaveLength(4);
  });

  it("asks for the tools' texts in the member's language, and says the language the site wrote them in", async () => {
    sandbox.setKnobs({ mcpLocalizedTools: true });
    const browser = await signIn();
    const toolsOf = async ({ locale, ...headers }: { locale?: string; "accept-language": string }) => {
      if (locale) browser.cookies.set("locale", locale);
      else browser.cookies.delete("locale");
      const { status, body } = await getConnections(browser, headers);
      expect(status).toBe(200);
      const connections = body as Connections;
      if (!connections.available) throw new Error("unreachable");
      return { language: connections.toolsLanguage, orders: connections.tools.find((tool) => tool.name === "list_my_orders") };
    };
    // The language switch's cookie, then the browser's Accept-Language, as every page.
    for (const headers of [{ locale: "zh-TW", "accept-language": "en" }, { "accept-language": "zh-Hant-TW, en;q=0.5" }]) {
      expect(await toolsOf(headers)).toMatchObject({ language: "zh-TW", orders: { title: "列出我的訂單", access: "member" } });
    }
    expect(await toolsOf({ "accept-language": "en-GB" })).toMatchObject({ language: "en", orders: { title: "List my orders" } });
  });

  it("shows a site's tools as it writes them, and claims no language, when it says none", async () => {
    const browser = await signIn();
    browser.cookies.set("locale", "zh-TW");
    const { body } = await getConnections(browser);
    expect(body).toMatchObject({
      available: true,
      tools: expect.arrayContaining([expect.objectContaining({ title: "List my orders" })]) as unknown,
    });
    expect(body).not.toHaveProperty("toolsLanguage");
  });

  it("clears the listing's deadline when it is done: no timer left to keep the request alive for 8 s", async () => {
    const browser = await signIn();
    const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = globalThis;
    const running = new Map<unknown, string>();
    const created: string[] = [];
    vi.spyOn(globalThis, "setTimeout").mockImplementation((...args: Parameters<typeof setTimeout>) => {
      const timer = realSetTimeout(...args);
      if (args[1] === SITE_CALL_TIMEOUT_MS) {
        const where = new Error().stack ?? "";
        running.set(timer, where);
        created.push(where);
      }
      return timer;
    });
    vi.spyOn(globalThis, "clearTimeout").mockImplementation((timer) => {
      running.delete(timer);
      realClearTimeout(timer);
    });
    try {
      expect((await getConnections(browser)).status).toBe(200);
    } finally {
      vi.restoreAllMocks();
    }
    // The listing's own deadline (the SDK's per-request timeouts are cleared by the SDK).
    expect(created.some((where) => where.includes("clearableTimeout") && where.includes("inspectMcpServer"))).toBe(true);
    expect([...running.values()]).toEqual([]);
  });

  it("answers 401 JSON without a session and calls nothing at the site", async () => {
    const response = await connectionsRoute(new Browser().request("/api/account/connections"));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "unauthenticated" } });
    expect(response.headers.get("location")).toBeNull();
    expect(sandbox.requests()).toHaveLength(0);
  });

  it.each([
    { status: 404, reason: "not_offered" },
    { status: 405, reason: "not_offered" },
    { status: 503, reason: "unreachable" },
    // RFC 6585 section 4: a server that limits how often it answers is busy, not gone.
    { status: 429, reason: "busy" },
    { status: 400, reason: "incompatible" },
    { status: 403, reason: "incompatible" },
  ])("says the site offers no connection when /mcp answers $status ($reason), without ending the session", async ({ status, reason }) => {
    const browser = await signIn();
    sandbox.setKnobs({ failures: { mcp: { mode: "status", status } } });
    const answer = await getConnections(browser);
    expect(answer.status).toBe(200);
    // The sandbox's 429 names a wait of 1 s (its Retry-After), which Settings repeats.
    expect(answer.body).toEqual({
      available: false,
      mcpUrl: `${sandbox.url}/mcp`,
      reason,
      ...(status === 429 ? { retryAfterSeconds: 1 } : {}),
    });
    expect(refreshGrants()).toHaveLength(0);
    sandbox.setKnobs({ failures: { mcp: null } });
    // An "off" answer is kept for MCP_PROBE_TTL_SECONDS, and a new process (or the TTL past) asks again; a site
    // that did not answer is asked again at the next view.
    if (reason !== "unreachable" && reason !== "busy") {
      expect((await getConnections(browser)).body).toEqual({ available: false, mcpUrl: `${sandbox.url}/mcp`, reason });
      resetPublicToolsCacheForTests();
    }
    expect((await getConnections(browser)).body).toMatchObject({ available: true });
  });

  type BusyAnswer = { status?: number; retryAfter: string | null; headers?: Record<string, string> };
  it.each<{
    said: string;
    /** A wait written as a moment (an HTTP-date, an epoch reset) is written when the knob is set, not when the table is. */
    failure: BusyAnswer | (() => BusyAnswer);
    wait?: number | number[];
  }>([
    { said: "Retry-After in seconds", failure: { retryAfter: "120" }, wait: 120 },
    {
      said: "Retry-After as an HTTP-date",
      failure: () => ({ retryAfter: new Date(Date.now() + 300_000).toUTCString() }),
      wait: [299, 300],
    },
    { said: "no wait", failure: { retryAfter: null }, wait: undefined },
    { said: "a wait over a day", failure: { retryAfter: "90000" }, wait: undefined },
    // draft-ietf-httpapi-ratelimit-headers: a used-up limit and its reset, in seconds from now, without Retry-After.
    {
      said: "a used-up rate limit",
      failure: { retryAfter: null, headers: { "ratelimit-remaining": "0", "ratelimit-reset": "45" } },
      wait: 45,
    },
    {
      said: "a rate limit not used up",
      failure: { retryAfter: null, headers: { "ratelimit-remaining": "3", "ratelimit-reset": "45" } },
      wait: undefined,
    },
    // GitHub's rate limits answer 403: its secondary limits with Retry-After, its primary one with the limit
    // used up and its reset in seconds since the epoch. A bare 403 is not busy (the status table above).
    { said: "a 403 with Retry-After", failure: { status: 403, retryAfter: "30" }, wait: 30 },
    {
      said: "a 403 with a used-up rate limit",
      failure: () => ({
        status: 403,
        retryAfter: null,
        headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 60) },
      }),
      wait: [59, 60, 61],
    },
  ])("a busy MCP server's wait ($said) reaches Settings, from the first look and from the member's own", async ({ failure, wait }) => {
    const expectWait = (body: unknown) => {
      const { retryAfterSeconds } = body as { retryAfterSeconds?: number };
      if (Array.isArray(wait)) expect(wait).toContain(retryAfterSeconds);
      else expect(retryAfterSeconds).toBe(wait);
      expect(body).toMatchObject({ available: false, reason: "busy" });
    };
    const busy = () => ({ mode: "status" as const, status: 429, ...(typeof failure === "function" ? failure() : failure) });
    const browser = await signIn();
    // The anonymous first look answered that the server is busy (429, unless the case says otherwise).
    sandbox.setKnobs({ failures: { mcp: busy() } });
    expectWait((await getConnections(browser)).body);
    // The first look answered and is kept (MCP_PROBE_TTL_SECONDS); the member's own look answers busy.
    sandbox.setKnobs({ failures: { mcp: null } });
    expect((await getConnections(browser)).body).toMatchObject({ available: true });
    sandbox.setKnobs({ failures: { mcp: busy() } });
    expectWait((await getConnections(browser)).body);
  });

  it("calls an answer that is not MCP incompatible", async () => {
    const browser = await signIn();
    sandbox.setKnobs({ failures: { mcp: { mode: "malformed" } } });
    expect((await getConnections(browser)).body).toMatchObject({ available: false, reason: "incompatible" });
  });

  it("calls a redirect away from /mcp unreachable and does not follow it", async () => {
    const browser = await signIn();
    sandbox.setKnobs({ failures: { mcp: { mode: "redirect" } } });
    expect((await getConnections(browser)).body).toMatchObject({ available: false, reason: "unreachable" });
    expect(sandbox.requests().filter((entry) => entry.path === "/maintenance")).toHaveLength(0);
  });

  it("refreshes once and retries when the site refuses the access token", async () => {
    const browser = await signIn();
    // The session still believes in an access token the site no longer accepts (as after a rotation elsewhere).
    const jar = memoryJar(Object.fromEntries(browser.cookies));
    const loaded = await loadSession(jar);
    if (!loaded) throw new Error("no session");
    await saveSession(jar, { ...loaded.data, accessToken: "refused-by-the-site" });
    browser.cookies = new Map(jar.cookies);

    const { status, text, body } = await getConnections(browser);
    expect(status).toBe(200);
    expect(body).toMatchObject({ available: true, serverName: MCP_SERVER_NAME, memberTools: true });
    expect(refreshGrants()).toHaveLength(1);
    expect(refreshGrants()[0]?.status).toBe(200);
    const refused = mcpRequests().filter((entry) => entry.status === 401);
    expect(refused).toHaveLength(1);
    // One refused initialize, then the member's listing (3) and the anonymous one (3), run once.
    expect(mcpRequests()).toHaveLength(7);
    const renewed = await tokensOf(browser);
    expect(renewed.accessToken).not.toBe("refused-by-the-site");
    expect(text).not.toContain(renewed.accessToken);
    if (renewed.refreshToken) expect(text).not.toContain(renewed.refreshToken);

    // The renewed tokens were saved: the next answer needs no refresh, and the public catalog's tools
    // are remembered: only the member's own listing goes to the site.
    sandbox.resetRequests();
    expect((await getConnections(browser)).status).toBe(200);
    expect(refreshGrants()).toHaveLength(0);
    expect(mcpRequests()).toHaveLength(3);
  });

  it.each(["bare", "with_metadata"] as const)(
    "keeps the session when the MCP server alone refuses even a refreshed token (challenge %s): 'refused', not a sign-in loop",
    async (refusal) => {
      const browser = await signIn();
      sandbox.setKnobs({ mcpMemberTokenRefusal: refusal });
      const log = captureLog();
      const { status, body } = await getConnections(browser);
      expect(status).toBe(200);
      expect(body).toMatchObject({ available: false, reason: "refused" });
      // Refused, refreshed once, refused again: no third try.
      expect(refreshGrants()).toHaveLength(1);
      expect(mcpRequests().filter((entry) => entry.status === 401)).toHaveLength(2);
      expect(log.events()).toContainEqual(
        expect.objectContaining({ event: "site_error", endpoint: "/mcp", reason: "refreshed_token_refused" }),
      );
      // The member is still signed in, with the refreshed tokens.
      expect(await loadSession(memoryJar(Object.fromEntries(browser.cookies)))).not.toBeNull();
      sandbox.setKnobs({ mcpMemberTokenRefusal: "off" });
      expect((await getConnections(browser)).body).toMatchObject({ available: true });
    },
  );

  it("ends the session with 401 when the site refuses the token and the refresh token too", async () => {
    const browser = await signIn();
    const jar = memoryJar(Object.fromEntries(browser.cookies));
    const loaded = await loadSession(jar);
    if (!loaded) throw new Error("no session");
    await saveSession(jar, { ...loaded.data, accessToken: "refused-by-the-site", refreshToken: "unknown-refresh-token" });
    browser.cookies = new Map(jar.cookies);

    const { status, body } = await getConnections(browser);
    expect(status).toBe(401);
    expect(body).toMatchObject({ error: { code: "unauthenticated" } });
    expect(await loadSession(memoryJar(Object.fromEntries(browser.cookies)))).toBeNull();
  });
});

describe("the site's MCP beta decides whether Settings offers an AI assistant", () => {
  afterEach(() => {
    sandbox.setMcpConnectionsBeta(true);
    delete process.env.MCP_PROBE_TTL_SECONDS;
    resetConfigForTests();
  });

  it("with the sandbox's admin switch off, answers 'not_offered' without asking /mcp for the member's tools", async () => {
    sandbox.setMcpConnectionsBeta(false);
    const browser = await signIn();
    const { status, body } = await getConnections(browser);
    expect(status).toBe(200);
    expect(body).toEqual({ available: false, mcpUrl: `${sandbox.url}/mcp`, reason: "not_offered" });
    // Only the anonymous probe (initialize) reached /mcp: the member's listing was never attempted.
    expect(mcpRequests()).toHaveLength(1);
  });

  it("with the switch on, lists the tools; the probe's answer is kept for MCP_PROBE_TTL_SECONDS per process", async () => {
    const browser = await signIn();
    expect(((await getConnections(browser)).body as Connections).available).toBe(true);
    // Turned off at the site: within the probe's lifetime the dashboard keeps its answer and asks no anonymous probe again.
    sandbox.setMcpConnectionsBeta(false);
    sandbox.resetRequests();
    expect(((await getConnections(browser)).body as Connections).available).toBe(true);
    expect(mcpRequests()).toHaveLength(3);
    // Once the probe's answer is forgotten (a new process, or the TTL past), the disclosure goes.
    resetPublicToolsCacheForTests();
    expect((await getConnections(browser)).body).toMatchObject({ available: false, reason: "not_offered" });
  });

  it("the shared probe outlives the deadline of the view that started it, and an 'unreachable' answer is not kept", async () => {
    // The first view's deadline passes while the site is slow: that view fails, the probe goes on and its answer holds.
    sandbox.setKnobs({ latencyMs: 150 });
    try {
      await expect(withSiteDeadline(100, () => probeMcpAnonymously())).rejects.toMatchObject({ code: "timeout" });
    } finally {
      sandbox.setKnobs({ latencyMs: 0 });
    }
    await expect(probeMcpAnonymously()).resolves.toMatchObject({ on: true });
    // A site that did not answer is asked again at the next view.
    resetPublicToolsCacheForTests();
    sandbox.setKnobs({ failures: { mcp: { mode: "status", status: 503, times: 1 } } });
    await expect(probeMcpAnonymously()).resolves.toEqual({ on: false, reason: "unreachable" });
    await expect(probeMcpAnonymously()).resolves.toMatchObject({ on: true });
  });

  it("with MCP_PROBE_TTL_SECONDS=0, asks the site on every view and follows the switch at once", async () => {
    process.env.MCP_PROBE_TTL_SECONDS = "0";
    resetConfigForTests();
    const browser = await signIn();
    expect(((await getConnections(browser)).body as Connections).available).toBe(true);
    sandbox.setMcpConnectionsBeta(false);
    expect((await getConnections(browser)).body).toMatchObject({ available: false, reason: "not_offered" });
    sandbox.setMcpConnectionsBeta(true);
    expect(((await getConnections(browser)).body as Connections).available).toBe(true);
  });
});
