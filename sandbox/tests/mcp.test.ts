import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { COURSES } from "../data/catalog";
import {
  MCP_PATH,
  MCP_SERVER_NAME,
  MCP_SERVER_VERSION,
  MEMBER_MCP_TOOLS,
  openMcpSessionCount,
  PUBLIC_MCP_TOOLS,
  toolLanguageFor,
} from "../mcp";
import { startSandbox } from "../server";
import type { RunningSandbox } from "../server";
import { obtainTokens, postForm } from "./helpers";

const FOREIGN = "https://sister.example.com";
let sandbox: RunningSandbox;
const clients: Client[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, knobs: { foreignResources: [FOREIGN] } });
  sandbox.setMcpConnectionsBeta(true);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  sandbox.setKnobs({ failures: { mcp: null }, mcpLocalizedTools: false });
});
afterAll(async () => {
  await sandbox.close();
});

async function connect(token?: string, acceptLanguage?: string): Promise<Client> {
  const client = new Client({ name: "sandbox-test", version: "1.0.0" });
  const headers = {
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    ...(acceptLanguage ? { "Accept-Language": acceptLanguage } : {}),
  };
  const transport = new StreamableHTTPClientTransport(new URL(MCP_PATH, sandbox.url), { requestInit: { headers } });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult & { structuredContent: Record<string, unknown> }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  expect(result.structuredContent).toBeDefined();
  return result as CallToolResult & { structuredContent: Record<string, unknown> };
}

/** A raw initialize request, to look at status codes and headers. */
function rawInitialize(headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${sandbox.url}${MCP_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
}

describe("MCP, anonymous", () => {
  it("names the server and lists only the public tools", async () => {
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...PUBLIC_MCP_TOOLS].sort());
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
  });

  it("lists courses with prices and pages through them", async () => {
    const client = await connect();
    const first = await call(client, "list_courses", { limit: 5 });
    expect(first.structuredContent).toMatchObject({ totalCount: COURSES.length, offset: 0, nextOffset: 5 });
    const courses = first.structuredContent.courses as { slug: string; price: { display: string }; url: string }[];
    expect(courses).toHaveLength(5);
    expect(courses[0]).toMatchObject({
      slug: "watercolor-foundations",
      price: { display: "NT$3,200" },
      url: `${sandbox.url}/courses/watercolor-foundations`,
    });
    const last = await call(client, "list_courses", { limit: 100, offset: COURSES.length - 2 });
    expect(last.structuredContent.nextOffset).toBeNull();
    expect(last.structuredContent.courses).toHaveLength(2);
  });

  it("searches courses by text", async () => {
    const client = await connect();
    const found = await call(client, "search_courses", { query: "watercolor" });
    const slugs = (found.structuredContent.courses as { slug: string }[]).map((course) => course.slug);
    expect(slugs).toContain("watercolor-foundations");
    const none = await call(client, "search_courses", { query: "zzzz-nothing" });
    expect(none.structuredContent.totalCount).toBe(0);
  });

  it("gets a course with its curriculum in sections, and reports an unknown slug as a tool error", async () => {
    const client = await connect();
    const course = await call(client, "get_course", { slug: "watercolor-foundations" });
    const sections = course.structuredContent.sections as { title: string; lectures: { id: string; title: string }[] }[];
    expect(sections.map((section) => section.title)).toEqual(["Getting started", "Core lessons", "Final project"]);
    expect(sections.flatMap((section) => section.lectures.map((lecture) => lecture.title))).toContain("Painting skies and clouds");
    const missing = (await client.callTool({ name: "get_course", arguments: { slug: "nope" } })) as CallToolResult;
    expect(missing.isError).toBe(true);
  });

  it("refuses invalid arguments without failing the server", async () => {
    const client = await connect();
    const result = (await client.callTool({ name: "list_courses", arguments: { limit: 100_000 } })) as CallToolResult;
    expect(result.isError).toBe(true);
  });

  it("does not offer member tools to anonymous callers", async () => {
    const client = await connect();
    const result = (await client.callTool({ name: "list_my_orders", arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
  });
});

describe("MCP, with a member token", () => {
  it("lists the member tools too and returns that member's data", async () => {
    const tokens = await obtainTokens(sandbox, { email: "maya@example.com" });
    const client = await connect(tokens.accessToken);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...PUBLIC_MCP_TOOLS, ...MEMBER_MCP_TOOLS].sort());

    const enrollments = await call(client, "list_my_enrollments", { limit: 100 });
    expect(enrollments.structuredContent.totalCount).toBe(8);
    const watercolor = (
      enrollments.structuredContent.enrollments as { slug: string; lastWatchedLecture: { resumeUrl: string } | null }[]
    ).find((item) => item.slug === "watercolor-foundations");
    expect(watercolor?.lastWatchedLecture?.resumeUrl).toBe(`${sandbox.url}/courses/watercolor-foundations/lectures/48004?t=754`);

    const orders = await call(client, "list_my_orders");
    expect(orders.structuredContent.totalCount).toBe(6);
    expect((orders.structuredContent.orders as { createdAt: string }[])[0]?.createdAt).toMatch(/\+08:00$/);

    const registrations = await call(client, "list_my_event_registrations");
    expect(registrations.structuredContent.totalCount).toBe(5);
  });

  it("gives each member their own data", async () => {
    const kai = await connect((await obtainTokens(sandbox, { email: "kai@example.com" })).accessToken);
    expect((await call(kai, "list_my_enrollments")).structuredContent.totalCount).toBe(130);
    expect((await call(kai, "list_my_event_registrations")).structuredContent.totalCount).toBe(0);
  });

  it("serves a valid token without account:read like an anonymous caller", async () => {
    const tokens = await obtainTokens(sandbox, { scope: "openid profile" });
    const client = await connect(tokens.accessToken);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...PUBLIC_MCP_TOOLS].sort());
  });
});

describe("MCP, refused tokens", () => {
  const resourceMetadata = () => `resource_metadata="${sandbox.url}/.well-known/oauth-protected-resource"`;

  it("answers an invalid token with 401 and a WWW-Authenticate challenge, and the SDK client fails to connect", async () => {
    const response = await rawInitialize({ authorization: "Bearer not-a-real-token" });
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer error="invalid_token"/);
    expect(challenge).toContain(resourceMetadata());
    expect(await response.json()).toMatchObject({ error: "invalid_token" });
    await expect(connect("not-a-real-token")).rejects.toThrow();
  });

  it("refuses a malformed Authorization header", async () => {
    const response = await rawInitialize({ authorization: "Bearer" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain(resourceMetadata());
  });

  it("refuses a revoked token and an expired one", async () => {
    const revoked = await obtainTokens(sandbox);
    await postForm(`${sandbox.url}/api/oauth/revoke`, {
      token: revoked.refreshToken,
      client_id: revoked.code.clientId,
      client_secret: revoked.code.secret,
    });
    const afterRevoke = await rawInitialize({ authorization: `Bearer ${revoked.accessToken}` });
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.headers.get("www-authenticate")).toContain(resourceMetadata());

    const expiring = await obtainTokens(sandbox);
    sandbox.setKnobs({ clockOffsetMs: 3 * 3600_000 });
    try {
      const afterExpiry = await rawInitialize({ authorization: `Bearer ${expiring.accessToken}` });
      expect(afterExpiry.status).toBe(401);
    } finally {
      sandbox.setKnobs({ clockOffsetMs: 0 });
    }
  });

  it("refuses a token bound to another origin (foreignResources)", async () => {
    const tokens = await obtainTokens(sandbox, { resource: FOREIGN });
    const response = await rawInitialize({ authorization: `Bearer ${tokens.accessToken}` });
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(resourceMetadata());
    await expect(connect(tokens.accessToken)).rejects.toThrow();
  });
});

describe("MCP transport details", () => {
  it("answers GET and DELETE with 405 (stateless server) and bad JSON with a JSON-RPC parse error", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${sandbox.url}${MCP_PATH}`, { method, headers: { accept: "text/event-stream" } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
    const bad = await fetch(`${sandbox.url}${MCP_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{",
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
  });

  it("refuses a foreign browser Origin (DNS rebinding) but not loopback pages", async () => {
    expect((await rawInitialize({ origin: "https://evil.example" })).status).toBe(403);
    expect((await rawInitialize({ origin: "http://localhost:6274" })).status).toBe(200);
  });

  it("logs /mcp requests as endpoint mcp and lets failures be injected", async () => {
    sandbox.resetRequests();
    await (await rawInitialize()).body?.cancel();
    expect(sandbox.requests().map((entry) => entry.endpoint)).toEqual(["mcp"]);
    sandbox.setKnobs({ failures: { mcp: { mode: "status", status: 503, times: 1 } } });
    const failed = await rawInitialize();
    expect(failed.status).toBe(503);
    expect(sandbox.requests().at(-1)).toMatchObject({ endpoint: "mcp", injectedFailure: "status", status: 503 });
    expect((await rawInitialize()).status).toBe(200);
  });
});

describe("MCP tool texts in the caller's language (mcpLocalizedTools)", () => {
  it("picks 繁體中文 or English from Accept-Language by q-value, English when it names neither", () => {
    expect(toolLanguageFor("zh-TW, en;q=0.5")).toBe("zh-TW");
    expect(toolLanguageFor("zh-Hant-HK")).toBe("zh-TW");
    expect(toolLanguageFor("en;q=0.4, zh;q=0.9")).toBe("zh-TW");
    expect(toolLanguageFor("zh-TW;q=0.3, en-GB")).toBe("en");
    expect(toolLanguageFor("fr, de;q=0.8")).toBe("en");
    expect(toolLanguageFor("zh-TW;q=0, en")).toBe("en");
    expect(toolLanguageFor(undefined)).toBe("en");
  });

  it("writes every tool's title and description in the language asked for, and says which", async () => {
    sandbox.setKnobs({ mcpLocalizedTools: true });
    const tokens = await obtainTokens(sandbox, { email: "maya@example.com" });
    const english = await (await connect(tokens.accessToken, "en")).listTools();
    const chinese = await (await connect(tokens.accessToken, "zh-TW, en;q=0.5")).listTools();
    expect(chinese.tools.map((tool) => tool.name)).toEqual(english.tools.map((tool) => tool.name));
    expect(chinese.tools.find((tool) => tool.name === "list_my_orders")).toMatchObject({ title: "列出我的訂單" });
    for (const [index, tool] of chinese.tools.entries()) {
      expect(tool.title, tool.name).not.toBe(english.tools[index]!.title);
      expect(tool.description, tool.name).not.toBe(english.tools[index]!.description);
    }
    const answer = await rawInitialize({ "accept-language": "zh-TW" });
    expect(answer.headers.get("content-language")).toBe("zh-TW");
    expect(answer.headers.get("vary")).toMatch(/accept-language/i);
  });

  it("is off by default: English whatever is asked, and no Content-Language", async () => {
    const chinese = await (await connect(undefined, "zh-TW")).listTools();
    expect(chinese.tools.find((tool) => tool.name === "list_courses")).toMatchObject({ title: "List courses" });
    expect((await rawInitialize({ "accept-language": "zh-TW" })).headers.get("content-language")).toBeNull();
  });
});

describe("MCP, while the admin's MCP connections beta is off", () => {
  afterEach(() => sandbox.setMcpConnectionsBeta(true));

  it("refuses anonymous callers with 404 and a JSON-RPC error saying the beta is off", async () => {
    sandbox.setMcpConnectionsBeta(false);
    const response = await fetch(new URL(MCP_PATH, sandbox.url), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringMatching(/beta\) is off/) as unknown } });
    await expect(connect()).rejects.toThrow();
  });

  it("serves anonymous callers again once the beta is on", async () => {
    sandbox.setMcpConnectionsBeta(false);
    sandbox.setMcpConnectionsBeta(true);
    const client = await connect();
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe("MCP with sessions and event streams (mcpSessions, mcpEventStream)", () => {
  afterEach(() => {
    sandbox.setKnobs({ mcpSessions: false, mcpEventStream: false });
  });

  it.each([
    { knobs: { mcpSessions: false, mcpEventStream: true }, sessions: false, type: "text/event-stream" },
    { knobs: { mcpSessions: true, mcpEventStream: false }, sessions: true, type: "application/json" },
    { knobs: { mcpSessions: true, mcpEventStream: true }, sessions: true, type: "text/event-stream" },
  ])("serves the SDK's client with $knobs: the tools and a call, answered as $type", async ({ knobs, sessions, type }) => {
    sandbox.setKnobs(knobs);
    const answer = await rawInitialize();
    expect(answer.headers.get("content-type")).toContain(type);
    expect(answer.headers.has("mcp-session-id")).toBe(sessions);
    await answer.body?.cancel();
    const { accessToken } = await obtainTokens(sandbox);
    const client = await connect(accessToken);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...PUBLIC_MCP_TOOLS, ...MEMBER_MCP_TOOLS].sort());
    expect((await call(client, "list_courses", { limit: 1 })).structuredContent).toMatchObject({ offset: 0 });
  });

  it("keeps a session until its client ends it, and only for the caller that opened it", async () => {
    sandbox.setKnobs({ mcpSessions: true });
    const before = openMcpSessionCount(sandbox.state);
    const opened = await rawInitialize();
    const id = opened.headers.get("mcp-session-id")!;
    expect(openMcpSessionCount(sandbox.state)).toBe(before + 1);
    const ask = (sessionId: string | undefined, headers: Record<string, string> = {}) =>
      fetch(`${sandbox.url}${MCP_PATH}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
          ...(sessionId ? { "mcp-session-id": sessionId } : {}),
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
      });
    expect((await ask(id)).status).toBe(200);
    // Without it, with one it never gave, or with another caller's: refused.
    expect((await ask(undefined)).status).toBe(400);
    expect((await ask("not-a-session")).status).toBe(404);
    const { accessToken } = await obtainTokens(sandbox);
    expect((await ask(id, { authorization: `Bearer ${accessToken}` })).status).toBe(404);
    const ended = await fetch(`${sandbox.url}${MCP_PATH}`, { method: "DELETE", headers: { "mcp-session-id": id } });
    expect(ended.status).toBe(200);
    expect(openMcpSessionCount(sandbox.state)).toBe(before);
    expect((await ask(id)).status).toBe(404);
  });

  it("ends the oldest session when a client opens one past its limit", async () => {
    sandbox.setKnobs({ mcpSessions: true });
    for (let opened = 0; opened < 205; opened += 1) await (await rawInitialize()).body?.cancel();
    expect(openMcpSessionCount(sandbox.state)).toBe(200);
  });
});

describe("MCP sessions lost (mcpSessionsLost)", () => {
  afterEach(() => {
    sandbox.setKnobs({ mcpSessions: false, mcpSessionsLost: 0 });
  });

  it("answers 404 to the next requests that name a session, which is then gone; later sessions work", async () => {
    sandbox.setKnobs({ mcpSessions: true, mcpSessionsLost: 1 });
    const lost = new Client({ name: "sandbox-test", version: "1.0.0" });
    await expect(lost.connect(new StreamableHTTPClientTransport(new URL(MCP_PATH, sandbox.url)))).rejects.toThrow(/404|Session not found/);
    await lost.close();
    expect(sandbox.state.knobs.mcpSessionsLost).toBe(0);
    const { tools } = await (await connect()).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...PUBLIC_MCP_TOOLS].sort());
  });
});
