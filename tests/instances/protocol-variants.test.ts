/**
 * Issue 30 item 3: the multi-instance journey once with a site that requires pushed authorization requests
 * (RFC 9126) and DPoP (RFC 9449) with a changing nonce, and a proof to revoke a bound token. Three
 * production dashboard processes with one SESSION_SECRET and one Redis behind a round-robin proxy, as in
 * instances.test.ts: the session's key (sealed in the cookie) and the site's nonce (shared through Redis)
 * must work from every instance. One journey over HTTP (every step's instance chosen, the nonce steps asserted
 * exactly) and the same journey in Debian's Chromium, not a second copy of the instances suite.
 */
import { chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { DPOP_NONCE_PERIOD_MS } from "@/sandbox/dpop";
import type { RunningSandbox } from "@/sandbox/server";
import { authorizeWithoutBrowser } from "@/sandbox/testing";

import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../support/chromium";
import type { DashboardInstance } from "../support/dashboard-instances";
import { HttpBrowser } from "../support/http-browser";
import type { RoundRobinProxy } from "../support/round-robin-proxy";
import { startInstanceCluster, type InstanceCluster } from "../support/instance-cluster";
import { untilRenewalIsDue } from "../support/renewal-wait";

/**
 * Access tokens due for renewal 5 s after they are issued (accessTokenRenewalTime): a test waits that long for
 * a renewal, and a request sent just before it still has 5 s before its token lapses, on a loaded machine too.
 */
const ACCESS_TOKEN_TTL_SECONDS = 10;
const SITE_LATENCY_MS = 25;
const STORM_SIZE = 10;
const PAGES = ["/", "/courses", "/orders", "/events", "/settings"];
const DATA_ROUTES = ["/api/account/courses", "/api/account/orders", "/api/account/events"];

let sandbox: RunningSandbox;
let proxy: RoundRobinProxy;
let instances: DashboardInstance[] = [];
let cluster: InstanceCluster | undefined;

beforeAll(async () => {
  cluster = await startInstanceCluster({
    knobs: {
      accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
      latencyMs: SITE_LATENCY_MS,
      par: "required",
      dpop: "required",
      dpopNonce: true,
      dpopRevocation: true,
    },
    redisPrefix: "instances-protocol-test:",
  });
  ({ sandbox, proxy, instances } = cluster);
}, 20 * 60_000);

afterAll(() => cluster?.stop(), 60_000);

/** Waits, when needed, until at least `ms` remain before the sandbox's DPoP nonce changes. */
async function withNonceStableFor(ms: number): Promise<void> {
  const left = DPOP_NONCE_PERIOD_MS - (sandbox.state.now() % DPOP_NONCE_PERIOD_MS);
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

const log = (endpoint: string) => sandbox.requests().filter((entry) => entry.endpoint === endpoint);
const refreshGrants = () => log("token").filter((entry) => entry.grantType === "refresh_token");

describe("PAR and DPoP required, a changing nonce, a proof to revoke: three instances, one Redis", () => {
  it("signs in through one instance, reads every page on each, rotates once for ten parallel requests, and revokes", async () => {
    const [a, b, c] = instances as [DashboardInstance, DashboardInstance, DashboardInstance];
    // The nonce steps below are asserted exactly: they run within one nonce period (two 5 s waits for a renewal among them).
    await withNonceStableFor(22_000);
    sandbox.resetRequests();

    // Sign in through A alone. The authorization request is pushed: the browser is sent only client_id and request_uri.
    const browser = new HttpBrowser();
    const login = await browser.get(a.url, "/api/auth/login?returnTo=%2Fcourses");
    expect(login.status).toBe(303);
    const authorize = new URL(login.headers.get("location")!);
    expect([...authorize.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    const redirect = await authorizeWithoutBrowser(authorize.href, { email: "maya@example.com" });
    const done = await browser.get(a.url, `${redirect.pathname}${redirect.search}`);
    expect(done.headers.get("location")).toBe(`${proxy.url}/courses`);
    // A learnt the nonce once (its first push was asked for it), then every proof carried it.
    expect(log("par").map((entry) => entry.status)).toEqual([400, 201]);
    expect(log("token").map((entry) => [entry.grantType, entry.status])).toEqual([["authorization_code", 200]]);
    expect(log("userinfo").map((entry) => entry.status)).toEqual([200]);

    // B and C have never spoken to the site: their first proofs (a refresh, then the Account API) carry the
    // nonce A learnt, shared through Redis, so the site asks none of them for it.
    sandbox.resetRequests();
    for (const instance of [b, c]) {
      await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
      expect((await browser.get(instance.url, "/api/account/courses")).status, instance.name).toBe(200);
    }
    expect(refreshGrants().map((entry) => entry.status)).toEqual([200, 200]);
    expect(log("graphql").map((entry) => entry.status)).toEqual([200, 200]);

    // Every page and every data route, from each instance, each instance refreshing first with the session's key.
    sandbox.resetRequests();
    for (const instance of instances) {
      await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
      for (const path of [...PAGES, ...DATA_ROUTES]) {
        const answer = await browser.get(instance.url, path);
        expect(answer.status, `${instance.name} ${path}`).toBe(200);
        if (path.startsWith("/api/")) expect((await answer.json()) as object, `${instance.name} ${path}`).toBeTruthy();
        else expect(await answer.text(), `${instance.name} ${path}`).toContain("Maya");
      }
    }
    // A nonce change meanwhile costs each instance one refusal and one retry; nothing else is refused.
    expect(refreshGrants().filter((entry) => entry.status === 200).length).toBeGreaterThanOrEqual(instances.length);
    expect(sandbox.requests().filter((entry) => entry.status >= 400 && entry.status !== 400 && entry.status !== 401)).toEqual([]);
    expect(sandbox.requests().filter((entry) => entry.status >= 400).length).toBeLessThanOrEqual(instances.length);

    // Ten parallel requests spread over the three instances, the token due: the refresh token rotates exactly once.
    await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    sandbox.resetRequests();
    proxy.resetCounts();
    const answers = await Promise.all(Array.from({ length: STORM_SIZE }, () => browser.snapshot().get(proxy.url, "/api/account/courses")));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: STORM_SIZE }, () => 200));
    expect(proxy.served.filter((count) => count > 0)).toHaveLength(3);
    expect(refreshGrants().filter((entry) => entry.status === 200)).toHaveLength(1);
    for (const answer of answers) browser.absorb(answer);
    // One key for the session, on every instance: every access token the site issued is bound to it.
    const keys = new Set([...sandbox.state.store.accessTokens.values()].map((record) => record.dpopJkt));
    expect([...keys]).toEqual([expect.stringMatching(/^[\w-]{43}$/)]);

    // Revoke access on C: the site requires a proof of the tokens' key, and the grant ends.
    const copy = browser.snapshot();
    sandbox.resetRequests();
    expect((await browser.post(c.url, "/api/auth/revoke", proxy.url)).status).toBe(200);
    expect(log("revoke").filter((entry) => entry.status === 200).length).toBeGreaterThanOrEqual(2);
    const grants = [...sandbox.state.store.grants.values()];
    expect(grants).toHaveLength(1);
    expect(grants[0]!.revokedAt).toBeDefined();
    expect([...sandbox.state.store.refreshTokens.values()].filter((record) => record.status === "active")).toEqual([]);
    for (const instance of [a, b]) expect((await copy.snapshot().get(instance.url, "/api/session")).status, instance.name).toBe(401);
  });

  it("in Chromium: signs in (only client_id and request_uri in the address bar), reads every page on each instance, revokes", async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      page.setDefaultTimeout(20_000);
      const seen: string[] = [];
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame()) seen.push(frame.url());
      });
      sandbox.resetRequests();
      const [a, b, c] = instances as [DashboardInstance, DashboardInstance, DashboardInstance];
      // The sign-in starts on A; the site sends the browser back to APP_URL, the proxy, which may pick any instance.
      await page.goto(`${a.url}/api/auth/login?returnTo=%2Fcourses`);
      await page.getByLabel("Email").fill("kai@example.com");
      await page.getByLabel("Password").fill("demo");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("button", { name: "Allow" }).click();
      await page.waitForURL(`${proxy.url}/courses`);
      const atSite = seen.filter((url) => url.startsWith(`${sandbox.url}/oauth/authorize?`));
      expect(atSite.length).toBeGreaterThan(0);
      for (const url of atSite) expect([...new URL(url).searchParams.keys()].sort(), url).toEqual(["client_id", "request_uri"]);

      // Every page from each instance (cookies are per host, so the session goes with the browser), each instance refreshing first.
      for (const instance of [b, c, a]) {
        await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
        await expectEveryPage(page, instance.url);
      }
      const refreshes = refreshGrants();
      expect(refreshes.filter((entry) => entry.status === 200).length).toBeGreaterThanOrEqual(instances.length);
      // At the token endpoint, UserInfo and the Account API: refusals only for a nonce that changed meanwhile
      // (a 400 or 401 then retried), never another failure. (The MCP beta is off: /mcp answers 404 to its probe.)
      const protocol = sandbox.requests().filter((entry) => ["par", "token", "userinfo", "graphql"].includes(entry.endpoint));
      expect(protocol.filter((entry) => entry.status >= 400 && entry.status !== 400 && entry.status !== 401)).toEqual([]);

      // Revoke access from Settings, on APP_URL (its origin is the one the dashboard accepts state changes from).
      await page.goto(`${proxy.url}/settings`);
      await page.getByRole("button", { name: "Revoke access" }).click();
      await page.getByRole("button", { name: "Yes, revoke" }).click();
      await page.waitForURL(/\/signed-out\?reason=revoked/);
      // Every grant of the run (this member's and the first test's) is revoked at the site.
      expect([...sandbox.state.store.grants.values()].filter((grant) => grant.revokedAt === undefined)).toEqual([]);
      expect(log("revoke").filter((entry) => entry.status === 200).length).toBeGreaterThanOrEqual(2);
    } finally {
      await browser.close();
    }
  });
});

/** Every page of the dashboard at `base`, by role and name, in the signed-in state. */
async function expectEveryPage(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/`);
  await expect.poll(() => page.getByRole("heading", { level: 1 }).first().textContent()).toMatch(/Hello, Kai/);
  await page.goto(`${base}/courses`);
  await page
    .getByRole("link", { name: /^(Resume|Start course)/ })
    .first()
    .waitFor();
  for (const [path, name] of [
    ["/orders", "Orders"],
    ["/events", "Events"],
  ] as const) {
    await page.goto(`${base}${path}`);
    await page.getByRole("heading", { level: 1, name }).waitFor();
    expect(await page.getByRole("alert").filter({ hasText: /\S/ }).count(), `${base}${path}`).toBe(0);
  }
  await page.goto(`${base}/settings`);
  await page.getByRole("button", { name: "Revoke access" }).waitFor();
}
