import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { GET as callbackRoute } from "@/app/api/auth/callback/route";
import { GET as loginRoute } from "@/app/api/auth/login/route";
import { POST as logoutRoute } from "@/app/api/auth/logout/route";
import { POST as revokeRoute } from "@/app/api/auth/revoke/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { GET as siteRoute } from "@/app/api/site/route";
import { resetDiscoveryCacheForTests } from "@/lib/auth/discovery";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { sessionCookieName } from "@/lib/session/session";
import { InMemorySharedState, setSharedStateForTests } from "@/lib/session/shared-state";
import { type RunningSandbox } from "@/sandbox/server";

import { TEST_APP_URL } from "../support/env";
import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser as Browser, SAME_ORIGIN_HEADERS, signInThroughRoutes } from "../support/route-browser";

const sameOrigin = SAME_ORIGIN_HEADERS;
const params = (resource: string) => ({ params: Promise.resolve({ resource }) });

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandboxForDashboard();
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  sandbox.resetRequests();
  sandbox.setKnobs({ refreshRevocationEndsGrant: true });
});

function signIn(browser: Browser, returnTo = "/courses"): Promise<Response> {
  return signInThroughRoutes(browser, { returnTo });
}

describe("GET /api/site, for the prerendered signed-out page", () => {
  it("answers the site's own name, its address and the framing origins, the same with or without a session", async () => {
    const expected = { name: "Demo Academy (sandbox)", url: sandbox.url, embedOrigins: [...getConfig().embedOrigins] };
    const anonymous = await siteRoute(new NextRequest(`${TEST_APP_URL}/api/site`));
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual(expected);
    const browser = new Browser();
    await signIn(browser);
    const signedIn = await siteRoute(browser.request("/api/site"));
    expect(await signedIn.json()).toEqual(expected);
    expect(signedIn.headers.get("set-cookie")).toBeNull();
  });
});

describe("sign-in routes", () => {
  it("signs in end to end and returns to the page the member came from", async () => {
    const browser = new Browser();
    const done = await signIn(browser, "/orders?page=2");
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`${TEST_APP_URL}/orders?page=2`);
    expect(done.headers.get("cache-control")).toBe("no-store");
    const session = await sessionRoute(browser.request("/api/session"));
    expect(session.status).toBe(200);
    const body = await session.text();
    expect(JSON.parse(body)).toMatchObject({
      email: "maya@example.com",
      name: "Maya Chen",
      scopes: expect.arrayContaining(["account:read"]) as unknown,
    });
    expect(body).not.toMatch(/access_?token|refresh_?token/i);
  });

  it.each([
    "//evil.example",
    "https://evil.example/",
    "/\\evil.example",
    "%2F%2Fevil.example",
    // Dot segments that the URL parser turns into "//evil.example" after the checks.
    "/a/..//evil.example",
    "/a/%2e%2e//evil.example",
    "/courses/.%2E//evil.example/x",
  ])("sends returnTo %s back to /", async (returnTo) => {
    const browser = new Browser();
    const done = await signIn(browser, returnTo);
    expect(done.headers.get("location")).toBe(`${TEST_APP_URL}/`);
  });

  // The prerendered signed-out page's Sign in, tapped before its scripts ran, has no returnTo: its address
  // comes as the Referer, and only this dashboard's signed-out page counts.
  const signedOutPage = `${TEST_APP_URL}/signed-out?reason=expired&returnTo=${encodeURIComponent("/orders?page=2")}`;
  it.each([
    { referer: signedOutPage, back: "/orders?page=2" },
    { referer: `${TEST_APP_URL}/signed-out?reason=expired&returnTo=${encodeURIComponent("//evil.example/x")}`, back: "/" },
    { referer: `${TEST_APP_URL}/signed-out?reason=expired`, back: "/" },
    { referer: `${TEST_APP_URL}/courses?returnTo=%2Forders`, back: "/" },
    { referer: `http://evil.example/signed-out?returnTo=%2Forders`, back: "/" },
    { referer: "not a URL", back: "/" },
  ])("a sign-in without returnTo from the Referer $referer returns to $back", async ({ referer, back }) => {
    const done = await signInThroughRoutes(new Browser(), { login: "/api/auth/login", loginHeaders: { referer } });
    expect(done.headers.get("location")).toBe(`${TEST_APP_URL}${back}`);
  });

  it("a returnTo of the link's own wins over the Referer's", async () => {
    const done = await signInThroughRoutes(new Browser(), {
      login: "/api/auth/login?returnTo=%2Fevents",
      loginHeaders: { referer: signedOutPage },
    });
    expect(done.headers.get("location")).toBe(`${TEST_APP_URL}/events`);
  });

  it("builds redirect_uri and the post-sign-in URL from configuration, whatever Host or X-Forwarded-* say", async () => {
    const spoofed = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", "x-forwarded-port": "443" };
    const browser = new Browser();
    const login = browser.absorb(
      await loginRoute(new NextRequest("http://evil.example/api/auth/login?returnTo=%2Forders", { headers: spoofed })),
    );
    const authorize = new URL(login.headers.get("location")!);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${TEST_APP_URL}/api/auth/callback`);
    const { authorizeWithoutBrowser } = await import("@/sandbox/testing");
    const redirect = await authorizeWithoutBrowser(authorize.href, { email: "maya@example.com" });
    const done = await callbackRoute(
      new NextRequest(`http://evil.example/api/auth/callback${redirect.search}`, { headers: { ...spoofed, ...browser.headers() } }),
    );
    expect(done.headers.get("location")).toBe(`${TEST_APP_URL}/orders`);
    expect(JSON.stringify([...done.headers])).not.toContain("evil.example");
  });

  it.each(["%E0%A4%A", "Fe26.2**broken", "%", "a".repeat(5000)])("answers a session cookie of %s with 401, never a 500", async (value) => {
    const response = await sessionRoute(
      new NextRequest(`${TEST_APP_URL}/api/session`, { headers: { cookie: `dash_session=${value}; __Host-dash_embedded=${value}` } }),
    );
    expect(response.status).toBe(401);
  });

  it.each(["null", "http://[", "%E0%A4%A", `${TEST_APP_URL}/`, TEST_APP_URL.toUpperCase()])(
    "refuses a logout with the malformed or foreign Origin %s with 403",
    async (origin) => {
      const response = await logoutRoute(
        new Browser().request("/api/auth/logout", { method: "POST", headers: { origin, "x-requested-with": "companion-dashboard" } }),
      );
      expect(response.status).toBe(403);
    },
  );

  it.each<Record<string, string>>([
    { "sec-purpose": "prefetch" },
    { purpose: "prefetch" },
    { "next-router-prefetch": "1" },
    { "x-middleware-prefetch": "1" },
  ])("sets nothing for a prefetch of the login route (%o)", async (headers) => {
    const browser = new Browser();
    const response = await loginRoute(browser.request("/api/auth/login", { headers }));
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(sandbox.requests()).toHaveLength(0);
  });

  it("ends a failed callback on the readable sign-in problem page", async () => {
    const browser = new Browser();
    const response = await callbackRoute(browser.request("/api/auth/callback?code=x&state=unknown&iss=x"));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${TEST_APP_URL}/sign-in-problem?code=login_expired`);
  });

  it("gives a clear sign-in-unavailable page when the site is down", async () => {
    resetDiscoveryCacheForTests();
    sandbox.setKnobs({ failures: { discovery: { mode: "status", status: 503 } } });
    try {
      const response = await loginRoute(new Browser().request("/api/auth/login"));
      // The sandbox's 503 says when to come back (Retry-After: 1): the page repeats it.
      expect(response.headers.get("location")).toBe(`${TEST_APP_URL}/sign-in-problem?code=site_unavailable&retryAfter=1`);
    } finally {
      sandbox.setKnobs({ failures: { discovery: null } });
      resetDiscoveryCacheForTests();
    }
  });
});

describe("data routes", () => {
  it("serves each page's data through its named operation, and 401 JSON without a session", async () => {
    const browser = new Browser();
    await signIn(browser);
    sandbox.resetRequests();
    const courses = await accountRoute(browser.request("/api/account/courses"), params("courses"));
    expect(courses.status).toBe(200);
    const graphql = sandbox.requests().filter((entry) => entry.endpoint === "graphql");
    expect(graphql).toHaveLength(1);
    const anonymous = await accountRoute(new Browser().request("/api/account/courses"), params("courses"));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: "unauthenticated" } });
    expect(anonymous.headers.get("location")).toBeNull();
  });

  it("refuses unknown pages and bad cursors before calling the site", async () => {
    const browser = new Browser();
    await signIn(browser);
    sandbox.resetRequests();
    expect((await accountRoute(browser.request("/api/account/graphql"), params("graphql"))).status).toBe(404);
    expect((await accountRoute(browser.request(`/api/account/courses?after=${"x".repeat(10_001)}`), params("courses"))).status).toBe(400);
    expect(sandbox.requests().filter((entry) => entry.endpoint === "graphql")).toHaveLength(0);
  });

  describe("a Show more cursor is the dashboard's own, for one list and one member", () => {
    const siteAsked = () => sandbox.requests().filter((entry) => entry.endpoint === "graphql").length;
    async function ordersCursorOf(browser: Browser): Promise<string> {
      const first = await accountRoute(browser.request("/api/account/orders"), params("orders"));
      const { nextCursor } = (await first.json()) as { nextCursor: string | null };
      if (nextCursor === null) throw new Error("expected a second page of orders");
      return nextCursor;
    }
    async function refusal(browser: Browser, page: string, cursor: string) {
      const response = await accountRoute(browser.request(`/api/account/${page}?after=${encodeURIComponent(cursor)}`), params(page));
      return { status: response.status, body: (await response.json()) as { error: { code: string; message: string } } };
    }

    beforeEach(() => sandbox.setKnobs({ maxPageSize: 2 }));
    afterEach(() => sandbox.reset());

    it("takes its own cursor and goes on", async () => {
      const maya = new Browser();
      await signInThroughRoutes(maya, { email: "maya@example.com" });
      const cursor = await ordersCursorOf(maya);
      // The site's cursor (the sandbox's is base64url of "cursor:v1:…") is sealed: the browser never holds it.
      expect(Buffer.from(cursor, "base64url").toString("latin1")).not.toContain("cursor:v1:");
      const next = await accountRoute(maya.request(`/api/account/orders?after=${encodeURIComponent(cursor)}`), params("orders"));
      expect(next.status).toBe(200);
      expect(((await next.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    });

    it("refuses, before asking the site, a cursor it did not give out, one for another list, and one given to another member", async () => {
      const maya = new Browser();
      const kai = new Browser();
      await signInThroughRoutes(maya, { email: "maya@example.com" });
      await signInThroughRoutes(kai, { email: "kai@example.com" });
      const mayasCursor = await ordersCursorOf(maya);
      sandbox.resetRequests();

      const junk = await refusal(maya, "orders", "junk");
      expect(junk).toEqual({
        status: 400,
        body: { error: { code: "invalid_cursor", message: expect.stringContaining("not one the dashboard gave out") as string } },
      });
      // A cursor in the sandbox site's own form, which the site would take, is not the dashboard's: the browser never holds one.
      const siteForm = Buffer.from(`cursor:v1:1:${Date.now()}`).toString("base64url");
      expect((await refusal(maya, "orders", siteForm)).status).toBe(400);
      // The same cursor on another list (OWASP ASVS 5 V2.2.1: input checked against what is expected of it).
      expect((await refusal(maya, "events", mayasCursor)).body.error.code).toBe("invalid_cursor");
      expect((await refusal(maya, "overview", mayasCursor)).body.error.code).toBe("invalid_cursor");
      // Handed to another member.
      expect((await refusal(kai, "orders", mayasCursor)).body.error.code).toBe("invalid_cursor");
      // Tampered with: one character changed inside the seal.
      const tampered = `${mayasCursor.slice(0, 60)}${mayasCursor[60] === "A" ? "B" : "A"}${mayasCursor.slice(61)}`;
      expect((await refusal(maya, "orders", tampered)).body.error.code).toBe("invalid_cursor");
      expect(siteAsked()).toBe(0);
    });
  });

  it("fails one page when the site's schema lacks its field, and keeps the others", async () => {
    const browser = new Browser();
    await signIn(browser);
    sandbox.setKnobs({ graphqlMissingFields: ["orders"] });
    try {
      const orders = await accountRoute(browser.request("/api/account/orders"), params("orders"));
      expect(orders.status).toBe(502);
      expect(await orders.json()).toMatchObject({ error: { code: "query_failed" } });
      expect((await accountRoute(browser.request("/api/account/courses"), params("courses"))).status).toBe(200);
    } finally {
      sandbox.setKnobs({ graphqlMissingFields: [] });
    }
  });
});

describe("logout and revocation", () => {
  for (const [name, route] of [
    ["logout", logoutRoute],
    ["revoke", revokeRoute],
  ] as const) {
    it(`refuses a cross-site POST to ${name} and changes nothing`, async () => {
      const browser = new Browser();
      await signIn(browser);
      sandbox.resetRequests();
      const attempts: Record<string, string>[] = [
        { origin: "https://evil.example", "x-requested-with": "companion-dashboard" },
        { origin: TEST_APP_URL },
        {},
      ];
      for (const headers of attempts) {
        const response = browser.absorb(await route(browser.request(`/api/auth/${name}`, { method: "POST", headers })));
        expect(response.status).toBe(403);
      }
      expect(sandbox.requests().filter((entry) => entry.endpoint === "revoke")).toHaveLength(0);
      expect((await sessionRoute(browser.request("/api/session"))).status).toBe(200);
    });
  }

  // A site SHOULD end the grant with its refresh token (RFC 7009 section 2.1); one that revokes only the token presented
  // must not leave the access token of a copied cookie live either.
  it.each([
    ["ends the grant with its refresh token", true],
    ["revokes only the token presented", false],
  ])("signs out for good at a site that %s: a copied cookie is dead even after a restart", async (_site, endsGrant) => {
    sandbox.setKnobs({ refreshRevocationEndsGrant: endsGrant });
    const browser = new Browser();
    await signIn(browser);
    const stale = new Map(browser.cookies);
    sandbox.resetRequests();
    const response = browser.absorb(await logoutRoute(browser.request("/api/auth/logout", { method: "POST", headers: sameOrigin })));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ signedOut: true, complete: true });
    expect(response.headers.get("clear-site-data")).toBe('"cookies"');
    // The session cookie itself is expired too, not left to Clear-Site-Data alone (checklist 59: the session is cleared).
    const sessionCookies = (cookies: Map<string, string>) => [...cookies.keys()].filter((name) => name.startsWith(sessionCookieName()));
    expect(sessionCookies(stale)).not.toEqual([]);
    expect(sessionCookies(browser.cookies)).toEqual([]);
    // RFC 7009 section 2.1: the refresh token, then the access token.
    expect(sandbox.requests().filter((entry) => entry.endpoint === "revoke" && entry.status === 200)).toHaveLength(2);
    expect((await sessionRoute(browser.request("/api/session"))).status).toBe(401);
    // The old cookie, replayed, is ended too (the shared state remembers the session as ended)...
    browser.cookies = stale;
    expect((await sessionRoute(browser.request("/api/session"))).status).toBe(401);
    // ...and after a restart that forgot it, the site no longer honours its tokens.
    setSharedStateForTests(new InMemorySharedState());
    const replayed = await accountRoute(browser.request("/api/account/courses"), params("courses"));
    expect(replayed.status).toBe(401);
  });

  it("still signs out here when the site cannot be reached, and says the site was not told", async () => {
    const browser = new Browser();
    await signIn(browser);
    sandbox.setKnobs({ failures: { revoke: { mode: "status", status: 503 } } });
    try {
      const response = browser.absorb(await logoutRoute(browser.request("/api/auth/logout", { method: "POST", headers: sameOrigin })));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ signedOut: true, complete: false });
      expect(response.headers.get("clear-site-data")).toBe('"cookies"');
      expect((await sessionRoute(browser.request("/api/session"))).status).toBe(401);
    } finally {
      sandbox.setKnobs({ failures: { revoke: null } });
    }
  });

  it("ends the session and says so plainly when the site refuses revocation as a configuration fault", async () => {
    const browser = new Browser();
    await signIn(browser);
    const secret = process.env.OAUTH_CLIENT_SECRET!;
    // The site's client secret was rotated without telling the dashboard: the site answers 401 invalid_client.
    process.env.OAUTH_CLIENT_SECRET = "a-secret-the-site-does-not-know-0123456789";
    resetConfigForTests();
    try {
      const response = browser.absorb(await revokeRoute(browser.request("/api/auth/revoke", { method: "POST", headers: sameOrigin })));
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ error: { code: "revocation_refused", detail: "invalid_client" } });
      expect(response.headers.get("clear-site-data")).toBe('"cookies"');
      expect(sandbox.requests().filter((entry) => entry.endpoint === "revoke" && entry.status === 401).length).toBeGreaterThan(0);
    } finally {
      process.env.OAUTH_CLIENT_SECRET = secret;
      resetConfigForTests();
    }
    expect((await sessionRoute(browser.request("/api/session"))).status).toBe(401);
  });

  it("revokes both tokens at the site with a hint, then ends the session", async () => {
    const browser = new Browser();
    await signIn(browser);
    sandbox.resetRequests();
    const response = browser.absorb(await revokeRoute(browser.request("/api/auth/revoke", { method: "POST", headers: sameOrigin })));
    expect(response.status).toBe(200);
    expect(response.headers.get("clear-site-data")).toBe('"cookies"');
    expect(sandbox.requests().filter((entry) => entry.endpoint === "revoke" && entry.status === 200)).toHaveLength(2);
    expect((await sessionRoute(browser.request("/api/session"))).status).toBe(401);
  });

  it("keeps the session and says so honestly when the site cannot be reached", async () => {
    const browser = new Browser();
    await signIn(browser);
    sandbox.setKnobs({ failures: { revoke: { mode: "status", status: 503 } } });
    try {
      const response = browser.absorb(await revokeRoute(browser.request("/api/auth/revoke", { method: "POST", headers: sameOrigin })));
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: { code: "revocation_unavailable" } });
      expect((await sessionRoute(browser.request("/api/session"))).status).toBe(200);
    } finally {
      sandbox.setKnobs({ failures: { revoke: null } });
    }
  });
});
