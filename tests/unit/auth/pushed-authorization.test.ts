import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as loginRoute } from "@/app/api/auth/login/route";
import { handleCallback } from "@/lib/auth/callback";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { startLogin } from "@/lib/auth/login";
import { resetConfigForTests } from "@/lib/config";
import { loadSession } from "@/lib/session/session";
import { withSiteDeadline } from "@/lib/site/site-deadline";

import { configureDashboard, TEST_APP_URL, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "../../support/env";
import { setUpFakeSite, type Handler } from "../../support/fake-site";
import { memoryJar } from "../../support/memory-jar";
import { RouteBrowser } from "../../support/route-browser";

/** Issue 30 item 1: Pushed Authorization Requests (RFC 9126) when the site advertises them. */
const site = setUpFakeSite({ idTokens: false });
let metadata: Record<string, unknown>;
const DISCOVERY = ["GET /.well-known/oauth-authorization-server", "GET /.well-known/openid-configuration"];
const REQUEST_URI = "urn:ietf:params:oauth:request_uri:abc123";

function serveMetadata(extra: Record<string, unknown>, without: string[] = []): void {
  const document: Record<string, unknown> = { ...metadata, ...extra };
  for (const name of without) delete document[name];
  for (const key of DISCOVERY) site.handlers.set(key, () => ({ json: document }));
  resetDiscoveryCacheForTests();
}

function offerPar(answer: Handler = () => ({ status: 201, json: { request_uri: REQUEST_URI, expires_in: 60 } })): void {
  serveMetadata({ pushed_authorization_request_endpoint: `${site.url}/api/oauth/par` });
  site.handlers.set("POST /api/oauth/par", answer);
}

beforeAll(() => {
  configureDashboard(site.url);
  resetConfigForTests();
  metadata = site.handlers.get(DISCOVERY[0]!)!({ method: "GET", path: "", body: "", headers: {} }).json as Record<string, unknown>;
});
beforeEach(() => {
  site.calls.length = 0;
  site.handlers.delete("POST /api/oauth/par");
  serveMetadata({});
});

describe("PAR when advertised (RFC 9126)", () => {
  it("pushes every parameter with client_secret_post and sends the browser only client_id and request_uri", async () => {
    offerPar();
    const jar = memoryJar();
    const url = await startLogin(jar, "/orders");
    expect(url.origin + url.pathname).toBe(`${site.url}/oauth/authorize`);
    expect([...url.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    expect(url.searchParams.get("client_id")).toBe(TEST_CLIENT_ID);
    expect(url.searchParams.get("request_uri")).toBe(REQUEST_URI);
    const pushed = site.callsTo("/api/oauth/par")[0]!.body as URLSearchParams;
    expect(pushed.get("client_secret")).toBe(TEST_CLIENT_SECRET);
    expect(pushed.get("client_id")).toBe(TEST_CLIENT_ID);
    expect(pushed.get("response_type")).toBe("code");
    expect(pushed.get("code_challenge_method")).toBe("S256");
    expect(pushed.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(pushed.get("state")).toMatch(/^[\w-]{43}$/);
    expect(pushed.get("nonce")).toMatch(/^[\w-]{43}$/);
    expect(pushed.get("resource")).toBe(site.url);
    expect(pushed.get("scope")).toBe("openid profile email account:read");
    expect(pushed.get("redirect_uri")).toBe(`${TEST_APP_URL}/api/auth/callback`);
    expect(pushed.has("code_verifier")).toBe(false);
    expect([...jar.cookies.keys()].some((name) => name.startsWith("dash_tx_"))).toBe(true);

    // The callback finishes as usual with the pushed state (the transaction was kept).
    site.handlers.set("POST /api/oauth/token", () => ({
      json: { access_token: "at", token_type: "Bearer", expires_in: 60, refresh_token: "rt", scope: "openid profile email account:read" },
    }));
    site.handlers.set("GET /api/oauth/userinfo", () => ({ json: { sub: "s", email: "m@example.com" } }));
    const callback = new URL("/api/auth/callback", TEST_APP_URL);
    callback.search = new URLSearchParams({ code: "c", state: pushed.get("state")!, iss: site.url }).toString();
    await handleCallback(jar, callback);
    expect((site.callsTo("/api/oauth/token")[0]!.body as URLSearchParams).get("code_verifier")).toMatch(/^[\w-]{43}$/);
    expect(await loadSession(jar)).not.toBeNull();
  });

  it("the popup sign-in (embedded mode) takes the same path", async () => {
    offerPar();
    const browser = new RouteBrowser();
    const binding = "b".repeat(43);
    const response = await loginRoute(browser.request(`/api/auth/login?display=popup&binding=${binding}&returnTo=/`));
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!);
    expect([...location.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    expect(site.callsTo("/api/oauth/par")).toHaveLength(1);
  });

  it("without PAR advertised, the request is exactly today's: every parameter in the URL, no PAR call", async () => {
    const url = await startLogin(memoryJar(), "/");
    expect([...url.searchParams.keys()]).toEqual([
      "response_type",
      "client_id",
      "redirect_uri",
      "scope",
      "code_challenge",
      "code_challenge_method",
      "state",
      "nonce",
      "resource",
    ]);
    expect(site.callsTo("/api/oauth/par")).toHaveLength(0);
  });

  it("require_pushed_authorization_requests without an endpoint is a clear configuration error, no redirect", async () => {
    serveMetadata({ require_pushed_authorization_requests: true });
    const jar = memoryJar();
    await expect(startLogin(jar, "/")).rejects.toMatchObject({ code: "site_misconfigured", detail: "par_endpoint_missing" });
    expect(jar.cookies.size).toBe(0);
  });

  it.each<[string, Handler, string]>([
    ["an OAuth error", () => ({ status: 400, json: { error: "invalid_request" } }), "invalid_request"],
    ["a 500", () => ({ status: 500, text: "oops" }), "unavailable"],
    ["non-JSON", () => ({ status: 201, text: "<html>ok</html>", headers: { "content-type": "text/html" } }), "unavailable"],
    ["200 instead of 201", () => ({ status: 200, json: { request_uri: REQUEST_URI, expires_in: 60 } }), "unavailable"],
    [
      "a request_uri that is not a request URN",
      () => ({ status: 201, json: { request_uri: "https://evil.example/r", expires_in: 60 } }),
      "request_uri",
    ],
    [
      "an empty request URN",
      () => ({ status: 201, json: { request_uri: "urn:ietf:params:oauth:request_uri:", expires_in: 60 } }),
      "request_uri",
    ],
  ])("a PAR endpoint that answers %s: a clean sign-in error, no transaction, no session", async (_name, answer, detail) => {
    offerPar(answer);
    const jar = memoryJar();
    await expect(startLogin(jar, "/")).rejects.toMatchObject({ code: "pushed_request_failed", detail });
    expect(jar.cookies.size).toBe(0);
  });

  it("a PAR endpoint that hangs: the sign-in error within the deadline", async () => {
    offerPar(() => ({ status: 201, json: { request_uri: REQUEST_URI, expires_in: 60 }, delayMs: 30_000 }));
    const jar = memoryJar();
    await expect(withSiteDeadline(300, () => startLogin(jar, "/"))).rejects.toBeDefined();
    expect(jar.cookies.size).toBe(0);
  });

  it("the login route ends a failed push on the sign-in problem page, never at the site", async () => {
    offerPar(() => ({ status: 503, text: "" }));
    const response = await loginRoute(new RouteBrowser().request("/api/auth/login?returnTo=/"));
    const location = new URL(response.headers.get("location")!);
    expect(location.origin).toBe(TEST_APP_URL);
    expect(location.pathname).toBe("/sign-in-problem");
    expect(location.searchParams.get("code")).toBe("pushed_request_failed");
    expect(location.searchParams.has("binding")).toBe(false);
  });

  it("in the panel's popup, the problem page keeps the handoff binding and the panel's language: its retry stays the panel's", async () => {
    offerPar(() => ({ status: 503, text: "" }));
    const binding = "b".repeat(43);
    const response = await loginRoute(new RouteBrowser().request(`/api/auth/login?display=popup&binding=${binding}&lang=zh-TW`));
    const location = new URL(response.headers.get("location")!);
    expect(location.pathname).toBe("/sign-in-problem");
    expect(location.searchParams.get("code")).toBe("pushed_request_failed");
    expect(location.searchParams.get("binding")).toBe(binding);
    expect(location.searchParams.get("lang")).toBe("zh-TW");
  });
});
