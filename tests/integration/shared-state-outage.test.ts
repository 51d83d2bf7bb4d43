/**
 * The BFF with its shared state in a real redis-server that goes down, hangs and comes back (docs/architecture.md
 * section 8): fail closed and fast, never "signed out" by an outage, sign-out still works, recovery
 * without a restart. Route handlers are called directly against the sandbox over real HTTP.
 */
import { createClient } from "redis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { GET as callbackRoute } from "@/app/api/auth/callback/route";
import { GET as loginRoute } from "@/app/api/auth/login/route";
import { POST as logoutRoute } from "@/app/api/auth/logout/route";
import { POST as revokeRoute } from "@/app/api/auth/revoke/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { resetConfigForTests } from "@/lib/config";
import { SHARED_STATE_RETRY_AFTER_SECONDS } from "@/lib/http/error-responses";
import { SESSION_IDLE_LIFETIME_MS } from "@/lib/session/session";
import { RedisSharedState } from "@/lib/session/redis-shared-state";
import { setSharedStateForTests } from "@/lib/session/shared-state";
import { type RunningSandbox } from "@/sandbox/server";
import { authorizeWithoutBrowser } from "@/sandbox/testing";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RedisServer } from "../support/redis-server";
import { RouteBrowser as Browser, SAME_ORIGIN_HEADERS, signInThroughRoutes } from "../support/route-browser";
import { waitUntil } from "../support/wait-until";

const params = (resource: string) => ({ params: Promise.resolve({ resource }) });
const PREFIX = "outage-test:";

let sandbox: RunningSandbox;
let redis: RedisServer;
let store: RedisSharedState;

beforeAll(async () => {
  redis = await RedisServer.start();
  sandbox = await startSandboxForDashboard();
  Object.assign(process.env, { REDIS_URL: redis.url, REDIS_PREFIX: PREFIX });
  resetConfigForTests();
  store = new RedisSharedState({ url: redis.url, prefix: PREFIX });
  setSharedStateForTests(store);
  await store.ping();
});
afterAll(async () => {
  redis.resume();
  await store.close();
  await sandbox.close();
  await redis.stop();
});
beforeEach(async () => {
  redis.resume();
  if (!redis.pid) await redis.launch();
  await waitForStore();
  sandbox.setKnobs({ accessTokenTtlSeconds: 7200 });
  sandbox.resetRequests();
});

async function waitForStore(): Promise<void> {
  await waitUntil(
    async () => {
      await store.ping();
      return true;
    },
    { what: "the shared state answering", timeoutMs: 5_000 },
  );
}

async function signedIn(): Promise<Browser> {
  const browser = new Browser();
  const done = await signInThroughRoutes(browser, { returnTo: "/courses" });
  expect(done.headers.get("location")).toMatch(/\/courses$/);
  return browser;
}

const tokenGrants = () => sandbox.requests().filter((entry) => entry.endpoint === "token").length;
const revocations = () => sandbox.requests().filter((entry) => entry.endpoint === "revoke" && entry.status === 200).length;

describe.each([
  ["hangs (SIGSTOP)", () => Promise.resolve(redis.pause())],
  ["is killed (SIGKILL)", () => redis.kill()],
])("while Redis %s", (_, outage) => {
  it("data routes answer 503 with Retry-After within about a second, keep the cookie and make no refresh grant", async () => {
    sandbox.setKnobs({ accessTokenTtlSeconds: 30 });
    const browser = await signedIn();
    const cookiesBefore = new Map(browser.cookies);
    sandbox.resetRequests();
    await outage();
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => accountRoute(browser.request("/api/account/courses"), params("courses"))),
    );
    expect(Date.now() - started).toBeLessThan(1_500);
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe(String(SHARED_STATE_RETRY_AFTER_SECONDS));
      expect(answer.headers.getSetCookie()).toEqual([]);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("temporarily_unavailable");
    }
    const session = await sessionRoute(browser.request("/api/session"));
    expect(session.status).toBe(503);
    expect(session.headers.getSetCookie()).toEqual([]);
    expect(tokenGrants()).toBe(0);

    redis.resume();
    if (!redis.pid) await redis.launch();
    const restored = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - restored < 3_000) {
      const answer = browser.absorb(await accountRoute(browser.request("/api/account/courses"), params("courses")));
      status = answer.status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect(Date.now() - restored).toBeLessThan(3_000);
    expect(browser.cookies.size).toBeGreaterThanOrEqual(cookiesBefore.size);
  });

  it.each([
    // Both revoke the refresh token and the access token.
    ["sign-out", logoutRoute, "/api/auth/logout"],
    ["Revoke access", revokeRoute, "/api/auth/revoke"],
  ] as const)("%s still revokes at the site and clears the cookie", async (_, route, path) => {
    const browser = await signedIn();
    sandbox.resetRequests();
    await outage();
    const response = browser.absorb(await route(browser.request(path, { method: "POST", headers: SAME_ORIGIN_HEADERS })));
    expect(response.status).toBe(200);
    expect(browser.cookies.size).toBe(0);
    expect(revocations()).toBe(2);
  });

  it("a sign-in callback ends on 'temporarily unavailable', not on a session", async () => {
    const browser = new Browser();
    const login = browser.absorb(await loginRoute(browser.request("/api/auth/login?returnTo=%2F")));
    const redirect = await authorizeWithoutBrowser(login.headers.get("location")!, { email: "maya@example.com" });
    await outage();
    const callback = browser.absorb(await callbackRoute(browser.request(`/api/auth/callback${redirect.search}`)));
    expect(callback.headers.get("location")).toMatch(/\/sign-in-problem\?code=temporarily_unavailable$/);
    expect(tokenGrants()).toBe(0);
  });
});

describe("with Redis up", () => {
  it("a session ended before an outage stays ended after Redis restarts, for no longer than its remaining life", async () => {
    const browser = await signedIn();
    const copy = new Browser();
    copy.cookies = new Map(browser.cookies);
    browser.absorb(await logoutRoute(browser.request("/api/auth/logout", { method: "POST", headers: SAME_ORIGIN_HEADERS })));
    const raw = createClient({ url: redis.url });
    await raw.connect();
    const keys = await raw.keys(`${PREFIX}session-ended:*`);
    const ttls = await Promise.all(keys.map((key) => raw.pTTL(key)));
    await raw.close();
    expect(ttls.length).toBeGreaterThan(0);
    for (const ttl of ttls) expect(ttl).toBeLessThanOrEqual(SESSION_IDLE_LIFETIME_MS);

    await redis.kill();
    await redis.launch();
    await waitForStore();
    const answer = await accountRoute(copy.request("/api/account/courses"), params("courses"));
    expect(answer.status).toBe(401);
  });
});
