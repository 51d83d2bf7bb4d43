import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { callWithMemberSession } from "@/lib/auth/member-session";
import { resetConfigForTests } from "@/lib/config";
import { apiErrorResponse } from "@/lib/http/error-responses";
import { loadSession, saveSession } from "@/lib/session/session";

import { setUpDashboardOnFakeSite } from "../../support/dashboard-on-fake-site";
import { TEST_APP_URL } from "../../support/env";
import { memoryJar } from "../../support/memory-jar";
import { expiringSession } from "../../support/session-fixture";
import { sessionData } from "../../support/session-data";

/**
 * Issue 30, item 0: what an independent OpenID provider taught us. A refresh refused with 400 or 401
 * ends the session with "access was withdrawn", whatever the body; 5xx, timeouts and network failures
 * stay temporary.
 */
const site = setUpDashboardOnFakeSite();

async function refreshAnswered(answer: { status: number; text?: string; json?: unknown; headers?: Record<string, string> }) {
  site.handlers.set("POST /api/oauth/token", () => answer);
  const jar = memoryJar();
  await saveSession(jar, expiringSession());
  const error = await callWithMemberSession(jar, () => Promise.resolve("never")).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  return { error, jar };
}

describe("a refresh refused with 400 or 401 ends the session: access was withdrawn", () => {
  it.each([
    ["400 with an empty body", { status: 400 }],
    ["400 with an HTML page", { status: 400, text: "<html>Bad Request</html>", headers: { "content-type": "text/html" } }],
    ["400 with a JSON error", { status: 400, json: { error: "invalid_grant" } }],
    ["401 with an empty body", { status: 401 }],
    ["401 with a Bearer challenge", { status: 401, headers: { "www-authenticate": 'Bearer error="invalid_client"' } }],
  ])("%s", async (_name, answer) => {
    const { error, jar } = await refreshAnswered(answer);
    expect(error).toMatchObject({ code: "unauthenticated", detail: "access_withdrawn" });
    expect(await loadSession(jar)).toBeNull();
    expect(jar.cookies.size).toBe(0);
    const response = apiErrorResponse(error);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "unauthenticated", detail: "access_withdrawn" } });
  });

  it.each([
    ["503 with an empty body", { status: 503 }],
    ["500 with an HTML page", { status: 500, text: "<html>oops</html>", headers: { "content-type": "text/html" } }],
    // Not a refusal of the grant either: the site is busy or failing, whatever status it chose for it.
    ["429 with an OAuth error body", { status: 429, json: { error: "invalid_request", error_description: "rate limit" } }],
    ["429 with an empty body", { status: 429 }],
    ["404 with server_error", { status: 404, json: { error: "server_error" } }],
    ["403 with temporarily_unavailable", { status: 403, json: { error: "temporarily_unavailable" } }],
  ])("%s stays temporary: 503 and the session kept", async (_name, answer) => {
    const { error, jar } = await refreshAnswered(answer);
    expect(error).toMatchObject({ code: "refresh_unavailable" });
    expect(apiErrorResponse(error).status).toBe(503);
    expect(await loadSession(jar)).not.toBeNull();
  });

  it("a network failure stays temporary", async () => {
    // The token endpoint listed by discovery refuses connections.
    const metadata = site.handlers.get("GET /.well-known/oauth-authorization-server")!;
    const unreachable = () => ({ json: { ...(metadata(site.calls[0]!).json as object), token_endpoint: "http://127.0.0.1:9/token" } });
    site.handlers.set("GET /.well-known/oauth-authorization-server", unreachable);
    site.handlers.set("GET /.well-known/openid-configuration", unreachable);
    // Another origin than SITE_URL's: the operator must list it (SITE_ENDPOINT_ORIGINS), or it is refused outright.
    process.env.SITE_ENDPOINT_ORIGINS = "http://127.0.0.1:9";
    resetConfigForTests();
    resetDiscoveryCacheForTests();
    try {
      const jar = memoryJar();
      await saveSession(jar, expiringSession());
      const error = await callWithMemberSession(jar, () => Promise.resolve("never")).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toMatchObject({ code: "refresh_unavailable" });
      expect(await loadSession(jar)).not.toBeNull();
    } finally {
      delete process.env.SITE_ENDPOINT_ORIGINS;
      resetConfigForTests();
      // The fake site is reset to its own discovery before the next test (tests/support/fake-site.ts).
      resetDiscoveryCacheForTests();
    }
  });

  it("a grant refused under another 4xx status still ends the session: retrying could never help", async () => {
    const { error, jar } = await refreshAnswered({ status: 403, json: { error: "invalid_grant" } });
    expect(error).toMatchObject({ code: "unauthenticated" });
    expect(await loadSession(jar)).toBeNull();
  });
});

describe("a page whose scope was not granted names it, without asking the site", () => {
  it("answers 403 insufficient_scope naming account:read and calls no Account API", async () => {
    const jar = memoryJar();
    await saveSession(jar, sessionData({ scopes: ["openid"] }));
    const cookie = [...jar.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await accountRoute(new NextRequest(`${TEST_APP_URL}/api/account/courses`, { headers: { cookie } }), {
      params: Promise.resolve({ resource: "courses" }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "insufficient_scope", detail: "account:read" } });
    expect(site.callsTo("/account/graphql")).toHaveLength(0);
  });
});
