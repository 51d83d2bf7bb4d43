/**
 * The site's MCP server at `/mcp` (docs/architecture.md section 6.3), built on the official MCP TypeScript
 * SDK over Streamable HTTP, stateless: every POST gets a fresh server and transport, answered with JSON (the
 * knobs `mcpSessions` and `mcpEventStream` make it keep sessions and answer with event streams).
 *
 * - Anonymous callers get the public catalog tools while the admin's "MCP connections" beta is on, and 404 while it is off.
 * - A member token (bound to this origin, with `account:read`: the same token the dashboard holds) also gets the
 *   member's own enrollments, orders and event registrations.
 * - A token that is invalid, expired, revoked or bound to another origin gets 401 `invalid_token` with a
 *   `WWW-Authenticate` challenge carrying `resource_metadata`. A valid token without `account:read` (an operator
 *   token) is served like an anonymous caller: the public tools need no scope.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult, ListToolsRequest, ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import type { Context, Hono } from "hono";
import { z } from "zod";
import { formatDateTime } from "./account-graphql";
import { getAccountData } from "./data/account";
import { COURSES, courseSections, findCourse, searchCourses } from "./data/catalog";
import type { Course } from "./data/catalog";
import { coursePlan, formatPrice } from "./data/pricing";
import { authenticateResourceRequest } from "./dpop";
import { invalidTokenResponse, NO_STORE_HEADERS } from "./http-util";
import { findMemberById, SCHOOL } from "./seed";
import type { DemoMember } from "./seed";
import type { SandboxState } from "./state";

export const MCP_PATH = "/mcp";
export const MCP_SERVER_NAME = "Demo Academy";
export const MCP_SERVER_VERSION = "1.0.0";
/** Tools every caller gets. */
export const PUBLIC_MCP_TOOLS = ["list_courses", "search_courses", "get_course"] as const;
/** Tools a member token with `account:read` additionally gets. */
export const MEMBER_MCP_TOOLS = ["list_my_enrollments", "list_my_orders", "list_my_event_registrations"] as const;

/** The languages the tools' texts are written in when the `mcpLocalizedTools` knob is on; English otherwise. */
type ToolLanguage = "en" | "zh-TW";
type ToolName = (typeof PUBLIC_MCP_TOOLS)[number] | (typeof MEMBER_MCP_TOOLS)[number];

const TOOL_TEXTS: Record<ToolLanguage, Record<ToolName, { title: string; description: string }>> = {
  en: {
    list_courses: { title: "List courses", description: `Lists the courses ${SCHOOL.name} sells, with prices, in catalog order.` },
    search_courses: {
      title: "Search courses",
      description: "Finds courses whose name, description or lecture titles contain every word of the query.",
    },
    get_course: { title: "Get a course", description: "One course with its price and curriculum: sections and their lectures." },
    list_my_enrollments: {
      title: "List my enrollments",
      description: "The signed-in member's enrolled courses: access expiry, progress and where to resume.",
    },
    list_my_orders: {
      title: "List my orders",
      description: "The signed-in member's orders, newest last, with their state, amounts and line items.",
    },
    list_my_event_registrations: {
      title: "List my event registrations",
      description: "The signed-in member's event registrations and the events' times and places.",
    },
  },
  "zh-TW": {
    list_courses: { title: "列出課程", description: `依目錄順序列出 ${SCHOOL.name} 販售的課程與價格。` },
    search_courses: { title: "搜尋課程", description: "找出名稱、說明或單元標題包含查詢中每個字詞的課程。" },
    get_course: { title: "查看課程", description: "一門課程的價格與課綱：各章節與其中的單元。" },
    list_my_enrollments: { title: "列出我的課程", description: "已登入學員的課程：存取期限、學習進度，以及從哪裡繼續看。" },
    list_my_orders: { title: "列出我的訂單", description: "已登入學員的訂單（最新的在最後），含狀態、金額與品項。" },
    list_my_event_registrations: { title: "列出我的活動報名", description: "已登入學員報名的活動，以及活動的時間與地點。" },
  },
};

/**
 * The caller's language among the tools' (RFC 9110 section 12.5.4): the Accept-Language range with the highest
 * q-value that one of them matches (zh, zh-TW and zh-Hant match 繁體中文), English when none does.
 */
export function toolLanguageFor(acceptLanguage: string | undefined): ToolLanguage {
  const ranges = (acceptLanguage ?? "")
    .split(",")
    .map((part) => {
      const [range = "", ...parameters] = part.trim().toLowerCase().split(";");
      const q = parameters.map((parameter) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(parameter)?.[1]).find(Boolean);
      return { range: range.trim(), q: q === undefined ? 1 : Number(q) };
    })
    .filter(({ range, q }) => range !== "" && q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { range } of ranges) {
    if (range === "zh" || range === "zh-tw" || range.startsWith("zh-hant")) return "zh-TW";
    if (range === "en" || range.startsWith("en-") || range === "*") return "en";
  }
  return "en";
}

const MAX_LIMIT = 100;
const limitSchema = z.number().int().min(1).max(MAX_LIMIT).optional().describe(`How many items to return (1 to ${MAX_LIMIT}, default 20)`);
const offsetSchema = z.number().int().min(0).max(100_000).optional().describe("How many items to skip (default 0)");

function page<T>(items: readonly T[], limit = 20, offset = 0) {
  const slice = items.slice(offset, offset + limit);
  return {
    totalCount: items.length,
    offset,
    nextOffset: offset + slice.length < items.length ? offset + slice.length : null,
    items: slice,
  };
}

function result(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

function courseSummary(state: SandboxState, course: Course) {
  const plan = coursePlan(course);
  return {
    slug: course.slug,
    name: course.name,
    description: course.description,
    lectureCount: course.lectures.length,
    price: { currency: plan.currency, amount: plan.amount, access: plan.access, display: formatPrice(plan) },
    url: `${state.issuer}/courses/${course.slug}`,
  };
}

function registerPublicTools(server: McpServer, state: SandboxState, texts: (typeof TOOL_TEXTS)[ToolLanguage]): void {
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
  server.registerTool(
    "list_courses",
    {
      ...texts.list_courses,
      inputSchema: { limit: limitSchema, offset: offsetSchema },
      annotations: readOnly,
    },
    ({ limit, offset }) => {
      const { items, ...rest } = page(COURSES, limit, offset);
      return result({ ...rest, courses: items.map((course) => courseSummary(state, course)) });
    },
  );
  server.registerTool(
    "search_courses",
    {
      ...texts.search_courses,
      inputSchema: { query: z.string().trim().min(1).max(200).describe("Words to look for, e.g. watercolor"), limit: limitSchema },
      annotations: readOnly,
    },
    ({ query, limit }) => {
      const found = searchCourses(query);
      return result({
        query,
        totalCount: found.length,
        courses: found.slice(0, limit ?? 20).map((course) => courseSummary(state, course)),
      });
    },
  );
  server.registerTool(
    "get_course",
    {
      ...texts.get_course,
      inputSchema: { slug: z.string().min(1).max(200).describe("The course slug, e.g. watercolor-foundations") },
      annotations: readOnly,
    },
    ({ slug }) => {
      const course = findCourse(slug);
      if (!course) return toolError(`No course has the slug "${slug.slice(0, 100)}". Use search_courses to find one.`);
      return result({
        ...courseSummary(state, course),
        totalDurationSeconds: course.lectures.reduce((sum, lecture) => sum + lecture.durationSeconds, 0),
        sections: courseSections(course).map((section) => ({
          id: section.id,
          title: section.title,
          lectures: section.lectures.map((lecture) => ({
            id: lecture.id,
            title: lecture.title,
            durationSeconds: lecture.durationSeconds,
            url: `${state.issuer}/courses/${course.slug}/lectures/${lecture.id}`,
          })),
        })),
      });
    },
  );
}

function registerMemberTools(server: McpServer, state: SandboxState, member: DemoMember, texts: (typeof TOOL_TEXTS)[ToolLanguage]): void {
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
  const data = () => getAccountData(member.email, state.now());
  const date = (value: Date | null) => (value === null ? null : formatDateTime(value));
  server.registerTool(
    "list_my_enrollments",
    {
      ...texts.list_my_enrollments,
      inputSchema: { limit: limitSchema, offset: offsetSchema },
      annotations: readOnly,
    },
    ({ limit, offset }) => {
      const { items, ...rest } = page(data().enrollments, limit, offset);
      return result({
        ...rest,
        enrollments: items.map((item) => ({
          slug: item.slug,
          name: item.name,
          expireDate: date(item.expireDate),
          hasLifetimeAccess: item.hasLifetimeAccess,
          completionPercentage: item.completionPercentage,
          lastWatchedLecture: item.lastWatchedLecture
            ? {
                lectureId: item.lastWatchedLecture.lectureId,
                title: item.lastWatchedLecture.title,
                positionSeconds: item.lastWatchedLecture.positionSeconds,
                watchedAt: formatDateTime(item.lastWatchedLecture.watchedAt),
                resumeUrl:
                  `${state.issuer}/courses/${item.slug}/lectures/${item.lastWatchedLecture.lectureId}` +
                  `?t=${item.lastWatchedLecture.positionSeconds}`,
              }
            : null,
        })),
      });
    },
  );
  server.registerTool(
    "list_my_orders",
    {
      ...texts.list_my_orders,
      inputSchema: { limit: limitSchema, offset: offsetSchema },
      annotations: readOnly,
    },
    ({ limit, offset }) => {
      const { items, ...rest } = page(data().orders, limit, offset);
      return result({
        ...rest,
        orders: items.map((order) => ({
          ...order,
          paidAt: date(order.paidAt),
          createdAt: formatDateTime(order.createdAt),
        })),
      });
    },
  );
  server.registerTool(
    "list_my_event_registrations",
    {
      ...texts.list_my_event_registrations,
      inputSchema: { limit: limitSchema, offset: offsetSchema },
      annotations: readOnly,
    },
    ({ limit, offset }) => {
      const { items, ...rest } = page(data().eventRegistrations, limit, offset);
      return result({
        ...rest,
        eventRegistrations: items.map((registration) => ({
          ...registration,
          registeredAt: formatDateTime(registration.registeredAt),
          event: {
            ...registration.event,
            startTime: formatDateTime(registration.event.startTime),
            endTime: date(registration.event.endTime),
          },
        })),
      });
    },
  );
}

/** A server for one request: public tools, plus the member tools when a member is known. */
export function createMcpServer(state: SandboxState, member: DemoMember | undefined, language: ToolLanguage = "en"): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION, title: `${SCHOOL.name} (sandbox)` },
    {
      instructions: member
        ? `Catalog and account tools of ${SCHOOL.name}, for ${member.name}.`
        : `Public catalog tools of ${SCHOOL.name}. Send a member access token for the member's own data.`,
    },
  );
  // Before the first tool: the SDK installs its tools/list handler then.
  if (state.knobs.mcpToolsPageSize > 0) listToolsInPages(server, state.knobs.mcpToolsPageSize);
  const texts = TOOL_TEXTS[language];
  registerPublicTools(server, state, texts);
  if (member) registerMemberTools(server, state, member, texts);
  return server;
}

type ToolListHandler = (request: ListToolsRequest, extra: unknown) => ListToolsResult | Promise<ListToolsResult>;

/**
 * The `mcpToolsPageSize` knob: the SDK's tools/list handler, which answers every tool at once, answered `pageSize`
 * tools at a time, each page naming the next by an opaque cursor (MCP's pagination: `cursor`, `nextCursor`).
 */
function listToolsInPages(server: McpServer, pageSize: number): void {
  const protocol = server.server;
  const install = protocol.setRequestHandler.bind(protocol) as (schema: unknown, handler: ToolListHandler) => void;
  const paged =
    (everyTool: ToolListHandler): ToolListHandler =>
    async (request, extra) => {
      const all = await everyTool(request, extra);
      const cursor = request.params?.cursor;
      const start = cursor === undefined ? 0 : Number(Buffer.from(cursor, "base64url").toString());
      if (cursor !== undefined && !(Number.isInteger(start) && start > 0 && start < all.tools.length)) {
        throw new McpError(ErrorCode.InvalidParams, "Invalid cursor");
      }
      const end = start + pageSize;
      return {
        ...all,
        tools: all.tools.slice(start, end),
        ...(end < all.tools.length ? { nextCursor: Buffer.from(String(end)).toString("base64url") } : {}),
      };
    };
  protocol.setRequestHandler = ((schema: unknown, handler: ToolListHandler) =>
    install(schema, schema === ListToolsRequestSchema ? paged(handler) : handler)) as typeof protocol.setRequestHandler;
}

function jsonRpcError(
  c: Context,
  status: 400 | 403 | 404 | 405,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return c.json({ jsonrpc: "2.0", error: { code, message }, id: null }, status, { ...NO_STORE_HEADERS, ...headers });
}

/** Browsers send Origin: only this origin and loopback pages may call (MCP transport security, DNS rebinding). */
function originAllowed(state: SandboxState, origin: string | undefined): boolean {
  if (origin === undefined || origin === state.issuer) return true;
  try {
    const url = new URL(origin);
    return url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  } catch {
    return false;
  }
}

type Caller = { kind: "anonymous" } | { kind: "member"; member: DemoMember; authInfo: AuthInfo } | { kind: "refused"; response: Response };

/** @see RFC 6750 section 3.1, RFC 8707, RFC 9728 section 5.1 */
async function identifyCaller(c: Context, state: SandboxState): Promise<Caller> {
  // Bearer, or DPoP with a proof of the token's key and its ath (RFC 9449 section 7).
  const auth = await authenticateResourceRequest(c, state);
  if (auth.kind === "none") return { kind: "anonymous" };
  if (auth.kind === "refused") return auth;
  if (state.knobs.mcpMemberTokenRefusal !== "off") {
    const description = "This MCP server does not accept the token";
    if (state.knobs.mcpMemberTokenRefusal === "with_metadata")
      return { kind: "refused", response: invalidTokenResponse(c, state, description) };
    c.header("WWW-Authenticate", `Bearer error="invalid_token", error_description="${description}"`);
    return { kind: "refused", response: c.json({ error: "invalid_token", error_description: description }, 401, { ...NO_STORE_HEADERS }) };
  }
  const record = auth.record;
  if (record.resource !== state.issuer) {
    return { kind: "refused", response: invalidTokenResponse(c, state, "The access token was issued for another resource") };
  }
  const member = findMemberById(record.memberId);
  if (!member) return { kind: "refused", response: invalidTokenResponse(c, state, "The member of this token no longer exists") };
  if (!record.scopes.includes("account:read")) return { kind: "anonymous" };
  return {
    kind: "member",
    member,
    authInfo: {
      token: record.token,
      clientId: record.clientId,
      scopes: record.scopes,
      expiresAt: Math.floor(record.expiresAt / 1000),
      resource: new URL(record.resource),
      extra: { memberId: member.id },
    },
  };
}

/** A session of the `mcpSessions` knob: its transport and server, and who opened it. */
interface McpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  caller: string;
}

/** Sessions open at most at once, per sandbox: the oldest ends when another opens. */
const MAX_MCP_SESSIONS = 200;
const sessionsOf = new WeakMap<SandboxState, Map<string, McpSession>>();

function mcpSessions(state: SandboxState): Map<string, McpSession> {
  let sessions = sessionsOf.get(state);
  if (!sessions) {
    sessions = new Map();
    sessionsOf.set(state, sessions);
  }
  return sessions;
}

/** How many MCP sessions (knob `mcpSessions`) are open: those a client opened and has not ended. */
export function openMcpSessionCount(state: SandboxState): number {
  return mcpSessions(state).size;
}

/** Who a session belongs to: a member, or every anonymous caller alike. */
function callerKey(caller: Exclude<Caller, { kind: "refused" }>): string {
  return caller.kind === "member" ? `member:${caller.member.id}` : "anonymous";
}

async function handleMcp(c: Context, state: SandboxState): Promise<Response> {
  if (!originAllowed(state, c.req.header("origin"))) return jsonRpcError(c, 403, -32000, "This Origin may not call the MCP server");
  const caller = await identifyCaller(c, state);
  if (caller.kind === "refused") return caller.response;
  // The admin's "MCP connections" beta (admin.ts): while it is off, the site offers MCP to no newcomer. Anonymous
  // callers get 404 with a JSON-RPC error saying so; a member's token keeps working ("existing applications keep
  // working", as the admin page says). The dashboard's anonymous probe (lib/site/mcp-client.ts) reads this.
  if (caller.kind === "anonymous" && !state.settings.mcpConnectionsBeta) {
    return jsonRpcError(c, 404, -32000, `MCP connections (beta) is off at this site: its admin has not turned it on`);
  }
  const ends = c.req.method === "DELETE" && state.knobs.mcpSessions;
  if (c.req.method !== "POST" && !ends) {
    // No standalone SSE stream (GET); stateless, no session to end (DELETE) either.
    return jsonRpcError(c, 405, -32000, "Method not allowed: send JSON-RPC with POST", {
      Allow: state.knobs.mcpSessions ? "POST, DELETE" : "POST",
    });
  }
  let parsedBody: unknown;
  if (!ends) {
    try {
      parsedBody = JSON.parse(await c.req.text());
    } catch {
      return jsonRpcError(c, 400, -32700, "Parse error: Invalid JSON");
    }
  }
  const options = { parsedBody, ...(caller.kind === "member" ? { authInfo: caller.authInfo } : {}) };
  const language = state.knobs.mcpLocalizedTools ? toolLanguageFor(c.req.header("accept-language")) : "en";
  const sessionId = c.req.header("mcp-session-id");
  let response: Response;
  if (state.knobs.mcpSessions && sessionId !== undefined) {
    // MCP Streamable HTTP, session management: a session this server does not know, or another caller's, is not found.
    const session = mcpSessions(state).get(sessionId);
    if (session && state.knobs.mcpSessionsLost > 0) {
      // The knob: this request reaches an instance that does not hold the session, which is gone for good.
      state.knobs = { ...state.knobs, mcpSessionsLost: state.knobs.mcpSessionsLost - 1 };
      endSession(mcpSessions(state), sessionId);
      return jsonRpcError(c, 404, -32001, "Session not found");
    }
    if (!session || session.caller !== callerKey(caller)) return jsonRpcError(c, 404, -32001, "Session not found");
    response = await session.transport.handleRequest(c.req.raw, options);
  } else {
    const server = createMcpServer(state, caller.kind === "member" ? caller.member : undefined, language);
    const transport = newTransport(state, server, callerKey(caller));
    try {
      await server.connect(transport);
      response = await transport.handleRequest(c.req.raw, options);
    } catch (error) {
      await server.close();
      throw error;
    }
    // Stateless, or a request that opened no session: the server ends with its answer.
    if (transport.sessionId === undefined) response = closingWith(response, () => server.close());
  }
  // Responses are per-caller (member data): never cached.
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", "no-store");
  if (state.knobs.mcpLocalizedTools) {
    headers.set("Content-Language", language);
    headers.append("Vary", "Accept-Language");
  }
  return new Response(response.body, { status: response.status, headers });
}

/** A transport as the knobs say: stateless or with sessions, answering with JSON or an event stream. */
function newTransport(state: SandboxState, server: McpServer, caller: string): WebStandardStreamableHTTPServerTransport {
  const enableJsonResponse = !state.knobs.mcpEventStream;
  if (!state.knobs.mcpSessions) return new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse });
  const sessions = mcpSessions(state);
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    enableJsonResponse,
    onsessioninitialized: (id) => {
      const oldest = sessions.keys().next();
      if (sessions.size >= MAX_MCP_SESSIONS && !oldest.done) endSession(sessions, oldest.value);
      sessions.set(id, { transport, server, caller });
    },
    onsessionclosed: (id) => endSession(sessions, id),
  });
  return transport;
}

function endSession(sessions: Map<string, McpSession>, id: string): void {
  const session = sessions.get(id);
  sessions.delete(id);
  void session?.server.close();
}

/**
 * `response` with `close` run once its body has been read to the end or given up: an event stream is written
 * after handleRequest returns, so its server must not close before.
 */
function closingWith(response: Response, close: () => Promise<void>): Response {
  const reader = response.body?.getReader();
  if (!reader) {
    void close();
    return response;
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (!done) return controller.enqueue(value);
      controller.close();
      void close();
    },
    cancel(reason) {
      void reader.cancel(reason);
      void close();
    },
  });
  return new Response(body, response);
}

export function registerMcpRoutes(app: Hono, state: SandboxState): void {
  app.all(MCP_PATH, (c) => handleMcp(c, state));
}
