/**
 * Several instances behind a load balancer (docs/architecture.md section 8), over real HTTP: a real redis-server
 * (append-only, noeviction), the sandbox with short-lived access tokens and added latency, three production
 * dashboard processes with one SESSION_SECRET and one REDIS_URL, and a round-robin proxy in front whose
 * origin is APP_URL. Run by `npm run test:instances` (scripts/test-instances.ts).
 */
import { createClient } from "redis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { RunningSandbox } from "@/sandbox/server";

import type { DashboardInstance } from "../support/dashboard-instances";
import { HttpBrowser, signInOverHttp } from "../support/http-browser";
import type { RedisServer } from "../support/redis-server";
import type { RoundRobinProxy } from "../support/round-robin-proxy";
import { startInstanceCluster, type InstanceCluster } from "../support/instance-cluster";
import { untilRenewalIsDue } from "../support/renewal-wait";
import { waitUntil } from "../support/wait-until";

/**
 * Access tokens due for renewal 5 s after they are issued (accessTokenRenewalTime): a test waits that long for
 * a renewal, and a request sent just before it still has 5 s before its token lapses, on a loaded machine too.
 */
const ACCESS_TOKEN_TTL_SECONDS = 10;
const SITE_LATENCY_MS = 25;
const STORM_SIZE = 30;
const STORM_ROUNDS = 4;

let redis: RedisServer;
let sandbox: RunningSandbox;
let proxy: RoundRobinProxy;
let instances: DashboardInstance[] = [];
let cluster: InstanceCluster | undefined;

beforeAll(async () => {
  cluster = await startInstanceCluster({
    knobs: { accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS, latencyMs: SITE_LATENCY_MS },
    redisPrefix: "instances-test:",
  });
  ({ redis, sandbox, proxy, instances } = cluster);
}, 20 * 60_000);

afterAll(() => cluster?.stop(), 60_000);

beforeEach(async ({ onTestFailed }) => {
  const startedAt = new Date().toISOString();
  // A status a test did not expect (a 503 on a loaded machine) is explained by what the instances logged meanwhile.
  onTestFailed(() => console.error(cluster?.loggedSince(startedAt)));
  redis.resume();
  if (!redis.pid) await redis.launch();
  await waitUntil(
    async () => (await Promise.all(instances.map(async (instance) => (await fetch(`${instance.url}/api/health`)).ok))).every(Boolean),
    { what: "every instance healthy", timeoutMs: 10_000 },
  );
  sandbox.resetRequests();
  proxy.resetCounts();
});

const refreshGrants = () => sandbox.requests().filter((entry) => entry.endpoint === "token" && entry.grantType === "refresh_token");

/** Signs in through the proxy: the login and the callback may reach different instances. */
const signIn = (login = "/api/auth/login?returnTo=%2Fcourses") => signInOverHttp(proxy.url, login);

async function signedIn(): Promise<HttpBrowser> {
  const { browser, done } = await signIn();
  expect(done.headers.get("location")).toBe(`${proxy.url}/courses`);
  return browser;
}

/**
 * Counts, by Redis's MONITOR, the lookups of a session's "ended" mark (lib/session/session.ts) that a
 * request makes, its answer read to the end.
 */
async function endedLookupsIn(server: RedisServer): Promise<{ during(request: () => Promise<Response>): Promise<number>; stop(): void }> {
  const monitor = createClient({ url: server.url });
  await monitor.connect();
  let seen = 0;
  await monitor.monitor((line) => {
    if (line.includes('"GET"') && line.includes("session-ended:")) seen += 1;
  });
  return {
    async during(request) {
      const before = seen;
      const answer = await request();
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
      // MONITOR's lines arrive apart from the answer: give the last ones time to come in.
      await new Promise((resolve) => setTimeout(resolve, 300));
      return seen - before;
    },
    // QUIT gets no answer in MONITOR mode: the connection is closed instead.
    stop: () => monitor.destroy(),
  };
}

async function statusOn(instance: { url: string }, browser: HttpBrowser, path = "/api/account/courses"): Promise<number> {
  return (await browser.snapshot().get(instance.url, path)).status;
}

describe("three instances behind a round-robin proxy, one Redis", () => {
  it(`a storm of ${STORM_SIZE} parallel data requests at expiry: exactly one refresh grant, ${STORM_ROUNDS} times in a row`, async () => {
    const browser = await signedIn();
    for (let round = 0; round < STORM_ROUNDS; round += 1) {
      await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
      const grantsBefore = refreshGrants().length;
      proxy.resetCounts();
      const cookie = browser.snapshot();
      const answers = await Promise.all(Array.from({ length: STORM_SIZE }, () => cookie.snapshot().get(proxy.url, "/api/account/courses")));
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: STORM_SIZE }, () => 200));
      expect(refreshGrants().length - grantsBefore).toBe(1);
      // Spread over the three instances by the proxy.
      expect(proxy.served).toEqual([STORM_SIZE / 3, STORM_SIZE / 3, STORM_SIZE / 3]);
      for (const answer of answers) browser.absorb(answer);
    }
    expect(refreshGrants().every((grant) => grant.status === 200)).toBe(true);
  });

  it("at a site that keeps its refresh token, a storm at expiry renews once across the instances", async () => {
    sandbox.setKnobs({ refreshWithoutRotation: true });
    try {
      const browser = await signedIn();
      await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
      proxy.resetCounts();
      const cookie = browser.snapshot();
      const answers = await Promise.all(Array.from({ length: STORM_SIZE }, () => cookie.snapshot().get(proxy.url, "/api/account/courses")));
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: STORM_SIZE }, () => 200));
      // The instances that waited for the lock took the renewal's record (half the new token's 10 s) from Redis.
      expect(refreshGrants().map((grant) => grant.status)).toEqual([200]);
      expect(proxy.served).toEqual([STORM_SIZE / 3, STORM_SIZE / 3, STORM_SIZE / 3]);
    } finally {
      sandbox.setKnobs({ refreshWithoutRotation: false });
    }
  });

  it("the pre-rotation cookie, replayed on each instance within 2 minutes, still works: no second refresh, the grant alive", async () => {
    const browser = await signedIn();
    await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    const preRotation = browser.snapshot();
    expect((await browser.get(instances[0]!.url, "/api/account/courses")).status).toBe(200);
    expect(refreshGrants()).toHaveLength(1);
    for (const instance of instances) expect(await statusOn(instance, preRotation)).toBe(200);
    expect(refreshGrants()).toHaveLength(1);
    // The grant is alive: the rotated refresh token is accepted by the site, once the renewed token is due.
    await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    expect((await browser.get(instances[2]!.url, "/api/account/courses")).status).toBe(200);
    expect(refreshGrants().map((grant) => grant.status)).toEqual([200, 200]);
  });

  it.each([
    ["sign-out", "/api/auth/logout"],
    ["Revoke access", "/api/auth/revoke"],
  ])("%s on instance A: the old cookie is refused on B and C within 1 s", async (_, path) => {
    const browser = await signedIn();
    const copy = browser.snapshot();
    for (const instance of instances) expect(await statusOn(instance, copy, "/api/session")).toBe(200);
    expect((await browser.post(instances[0]!.url, path, proxy.url)).status).toBe(200);
    const ended = Date.now();
    const [onB, onC] = await Promise.all([statusOn(instances[1]!, copy, "/api/session"), statusOn(instances[2]!, copy, "/api/session")]);
    expect(Date.now() - ended).toBeLessThan(1_000);
    expect([onB, onC]).toEqual([401, 401]);
    expect(await statusOn(instances[1]!, copy)).toBe(401);
  });

  it("Where you're signed in: listed on every instance; Sign out there on C ends the others on A and B, grants revoked", async () => {
    const laptop = await signedIn();
    const phone = await signedIn();
    const listOn = async (instance: { url: string }) =>
      ((await (await phone.get(instance.url, "/api/sessions")).json()) as { sessions: { id: string; current: boolean }[] }).sessions;
    for (const instance of instances) expect((await listOn(instance)).filter((entry) => !entry.current).length).toBeGreaterThanOrEqual(1);
    const mine = (await listOn(instances[0]!)).find((entry) => entry.current)!;
    const others = (await listOn(instances[1]!)).filter((entry) => !entry.current);
    sandbox.resetRequests();
    for (const other of others)
      expect((await phone.post(instances[2]!.url, "/api/sessions/end", proxy.url, { id: other.id })).status).toBe(200);
    // Each grant's refresh token and access token.
    expect(sandbox.requests().filter((entry) => entry.endpoint === "revoke" && entry.status === 200).length).toBe(2 * others.length);
    expect([await statusOn(instances[0]!, laptop, "/api/session"), await statusOn(instances[1]!, laptop, "/api/session")]).toEqual([
      401, 401,
    ]);
    expect(await listOn(instances[1]!)).toEqual([expect.objectContaining({ id: mine.id, current: true })]);
  });

  it("a page view and a tab click ask Redis whether the session ended once, not again for the render", async () => {
    const browser = await signedIn();
    const instance = instances[0]!;
    const lookups = await endedLookupsIn(redis);
    try {
      // A document view refreshes when its token is due, and then also checks before it saves the session.
      const grantsBefore = refreshGrants().length;
      const documentView = await lookups.during(() =>
        browser.fetch(`${instance.url}/courses`, { headers: { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" } }),
      );
      const refreshed = refreshGrants().length - grantsBefore;
      // A tab click from Overview: the router's RSC request, which the proxy only checks.
      const tree = ["", { children: ["(member)", { children: ["__PAGE__", {}, null, null, 0] }, null, null, 16] }, null, null, 16];
      const headers = { rsc: "1", "next-router-state-tree": encodeURIComponent(JSON.stringify(tree)), "next-url": "/" };
      // Next.js sends a request whose `_rsc` does not match its headers to the one that does, as the router asks.
      const asked = (await browser.fetch(`${instance.url}/courses?_rsc=tab`, { headers })).headers.get("location");
      expect(asked).toMatch(/^\/courses\?_rsc=/);
      const tabClick = await lookups.during(() => browser.fetch(`${instance.url}${asked}`, { headers }));
      expect({ documentView, tabClick }).toEqual({ documentView: 1 + refreshed, tabClick: 1 });
    } finally {
      lookups.stop();
    }
  });

  it("a callback URL replayed on another instance is refused", async () => {
    const { callbackPath, transactionCookies, done } = await signIn();
    expect(done.headers.get("location")).toBe(`${proxy.url}/courses`);
    const replay = new HttpBrowser();
    replay.cookies = new Map(transactionCookies);
    for (const instance of instances) {
      const answer = await replay.snapshot().get(instance.url, callbackPath);
      expect(answer.headers.get("location")).toMatch(/\/sign-in-problem\?code=(callback_replayed|login_expired)/);
      expect(answer.headers.getSetCookie().some((line) => line.startsWith("dash_session="))).toBe(false);
    }
  });

  it("an embedded handoff created on one instance is redeemed on another", async () => {
    const verifier = "w".repeat(43);
    const binding = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))).toString("base64url");
    const { done } = await signIn(`/api/auth/login?display=popup&binding=${binding}`);
    const location = new URL(done.headers.get("location")!);
    expect(location.pathname).toBe("/auth/popup-done");
    const code = new URLSearchParams(location.hash.slice(1)).get("handoff")!;
    const frames = instances.map(() => new HttpBrowser());
    const redeemedOn: number[] = [];
    for (const [index, instance] of instances.entries()) {
      const frame = frames[index]!;
      const answer = await frame.post(instance.url, "/api/auth/embedded", proxy.url, { code, verifier });
      if (answer.status === 200) redeemedOn.push(index);
    }
    // Every instance knows the handoff (a frame may redeem it again within the minute, see lib/auth/embedded-handoff.ts).
    expect(redeemedOn).toEqual([0, 1, 2]);
    expect((await frames[1]!.get(instances[2]!.url, "/api/session")).status).toBe(200);
  });
});

describe.each([
  ["stopped (SIGSTOP)", () => Promise.resolve(redis.pause()), () => Promise.resolve(redis.resume())],
  ["killed (SIGKILL)", () => redis.kill(), () => redis.launch()],
])("Redis %s", (_, outage, restore) => {
  it("every instance answers 503 within about 1 s, no refresh grant reaches the site, no cookie is cleared; then it recovers", async () => {
    const browser = await signedIn();
    const signedOut = await signedIn();
    const signedOutCopy = signedOut.snapshot();
    expect((await signedOut.post(proxy.url, "/api/auth/logout", proxy.url)).status).toBe(200);
    // The member's token is due for renewal when Redis goes: the refresh needs its lock, and none is sent.
    await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    sandbox.resetRequests();

    await outage();
    for (const instance of instances) {
      const started = Date.now();
      const answer = await browser.snapshot().get(instance.url, "/api/account/courses");
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
    const page = await browser.snapshot().get(proxy.url, "/courses");
    expect(await page.text()).toContain("The service is temporarily unavailable");
    // In the member's language, from the server alone (components/ui/service-unavailable.tsx ships no script).
    const inChinese = await browser.snapshot().fetch(`${proxy.url}/courses`, { headers: { "accept-language": "zh-TW" } });
    expect(await inChinese.text()).toContain("服務暫時無法使用");
    expect(page.status).toBe(503);
    expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(page.headers.getSetCookie().filter((line) => line.startsWith("dash_session"))).toEqual([]);
    expect(refreshGrants()).toHaveLength(0);

    await restore();
    const restored = Date.now();
    await waitUntil(
      async () => (await Promise.all(instances.map((instance) => statusOn(instance, browser)))).every((status) => status === 200),
      { what: "every instance serving the member again", timeoutMs: 5_000 },
    );
    expect(Date.now() - restored).toBeLessThan(2_500);
    // A session ended before the outage stays ended.
    for (const instance of instances) expect(await statusOn(instance, signedOutCopy, "/api/session")).toBe(401);
  });
});
