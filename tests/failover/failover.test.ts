/**
 * Redis that fails over (docs/architecture.md section 8), with real servers: Debian's redis-server as a
 * primary and a replica (replicating through a link whose lag the test sets), three redis-sentinel
 * processes, the sandbox (rotating refresh tokens, replay revokes the grant), three production dashboard
 * instances configured with REDIS_SENTINELS behind a round-robin proxy, and a fourth instance that skips
 * the replica wait (REDIS_UNSAFE_SKIP_REPLICA_WAIT, tests only) to prove the wait is what keeps a sign-out.
 * One failover, observed in order: (a) the crash mid-storm, (b) and (d) the sign-outs acknowledged before it
 * with and without the wait, (c) the old primary rejoining. Run by `npm run test:failover`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type RunningSandbox } from "@/sandbox/server";

import { sharedInstanceEnvironment, startDashboardInstance, type DashboardInstance } from "../support/dashboard-instances";
import { signInOverHttp, type HttpBrowser } from "../support/http-browser";
import { LaggingLink } from "../support/lagging-link";
import { RedisServer } from "../support/redis-server";
import { ask, closeAskConnections, RedisSentinels } from "../support/redis-sentinels";
import { untilRenewalIsDue } from "../support/renewal-wait";
import { RoundRobinProxy } from "../support/round-robin-proxy";
import { waitUntil } from "../support/wait-until";
import { checkSentinels, probeSentinels } from "@/scripts/doctor/redis-sentinel";

const SENTINEL_NAME = "dashboard";
const PREFIX = "failover-test:";
/** The member's first access token is due for renewal 5 s after it is issued (accessTokenRenewalTime). */
const SHORT_ACCESS_TOKEN_TTL_SECONDS = 10;
const SITE_LATENCY_MS = 25;
const STORM_SIZE = 30;
/** Replication lag while the sign-outs are acknowledged: below the dashboard's bounded WAIT (250 ms). */
const REPLICATION_LAG_MS = 150;
const RECOVERY_BOUND_MS = 2_000;
/**
 * Replication lag from (d)'s sign-out on: far beyond the moments between its write and the kill, so that
 * the marker is lost whatever the machine's load (with 150 ms, a stalled CI run once let it through).
 */
const LOST_WRITE_LAG_MS = 10_000;

let primary: RedisServer;
let replica: RedisServer;
let link: LaggingLink;
let sentinels: RedisSentinels;
let sandbox: RunningSandbox;
let proxy: RoundRobinProxy;
const instances: DashboardInstance[] = [];
let withoutWait: DashboardInstance | undefined;

/** Kept from (a) for the later cases: the member, and copies of two cookies taken before their sign-outs. */
let member: HttpBrowser;
let endedWithWait: HttpBrowser;
let endedWithoutWait: HttpBrowser;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const info = async (port: number) => String(await ask(port, ["INFO", "replication"]));

beforeAll(async () => {
  primary = await RedisServer.start();
  link = await LaggingLink.start(primary.port);
  replica = await RedisServer.start(["--replicaof", "127.0.0.1", String(link.port)]);
  await waitUntil(async () => /master_link_status:up/.test(await info(replica.port)), { what: "the replica's link", timeoutMs: 10_000 });
  // failover-timeout is long so that no Sentinel "fixes" the replica to bypass the lagging link during the run.
  sentinels = await RedisSentinels.start(3, SENTINEL_NAME, primary.port, { downAfterMs: 1_000, failoverTimeoutMs: 600_000 });
  // Each Sentinel must know the replica and the two other Sentinels before a failover can be agreed.
  await waitUntil(
    async () => {
      for (const port of sentinels.ports) {
        const [known, replicas] = await Promise.all([
          ask(port, ["SENTINEL", "SENTINELS", SENTINEL_NAME]) as Promise<unknown[]>,
          ask(port, ["SENTINEL", "REPLICAS", SENTINEL_NAME]) as Promise<unknown[]>,
        ]);
        if (known.length < 2 || replicas.length < 1) return false;
      }
      return true;
    },
    { what: "every Sentinel knowing the replica and the other Sentinels", timeoutMs: 20_000, intervalMs: 25 },
  );

  proxy = await RoundRobinProxy.start(() => instances.map((instance) => instance.port));
  sandbox = await startSandbox({
    port: 0,
    dashboardRedirectUris: [`${proxy.url}/api/auth/callback`],
    knobs: { accessTokenTtlSeconds: SHORT_ACCESS_TOKEN_TTL_SECONDS, latencyMs: SITE_LATENCY_MS },
  });
  const env = sharedInstanceEnvironment({
    siteUrl: sandbox.url,
    appUrl: proxy.url,
    shared: { REDIS_SENTINELS: sentinels.addresses, REDIS_SENTINEL_NAME: SENTINEL_NAME },
    redisPrefix: PREFIX,
    logLevel: "warn",
  });
  // The first start builds when sources changed; the others reuse that build.
  instances.push(await startDashboardInstance("A", env, 15 * 60_000));
  // Started together; each one that did start is handed to afterAll even when another failed, so no server outlives the suite.
  const started = await Promise.allSettled([
    startDashboardInstance("B", env, 120_000),
    startDashboardInstance("C", env, 120_000),
    startDashboardInstance("without-wait", { ...env, REDIS_UNSAFE_SKIP_REPLICA_WAIT: "true" }, 120_000),
  ]);
  const [b, c, unsafe] = started.map((result) => (result.status === "fulfilled" ? result.value : undefined));
  instances.push(...[b, c].filter((instance) => instance !== undefined));
  withoutWait = unsafe;
  const failedStart = started.find((result) => result.status === "rejected");
  if (failedStart) throw failedStart.reason;
  // As a load balancer would: traffic once every instance is ready (its Redis connection up).
  await waitUntil(
    async () =>
      (await Promise.all([...instances, unsafe!].map(async (instance) => (await fetch(`${instance.url}/api/ready`)).ok))).every(Boolean),
    { what: "every instance ready", timeoutMs: 20_000 },
  );
}, 20 * 60_000);

afterAll(async () => {
  // What the instances logged (warnings and errors), for a failure's investigation.
  const logs = [...instances, ...(withoutWait ? [withoutWait] : [])].map((instance) => `== ${instance.name}\n${instance.output()}`);
  mkdirSync(path.resolve(import.meta.dirname, "..", "..", "artifacts"), { recursive: true });
  writeFileSync(path.resolve(import.meta.dirname, "..", "..", "artifacts", "failover-instances.log"), logs.join("\n"));
  await Promise.all([...instances, ...(withoutWait ? [withoutWait] : [])].map((instance) => instance.stop()));
  await proxy?.close();
  await sandbox?.close();
  closeAskConnections();
  await sentinels?.stop();
  await link?.close();
  await replica?.stop();
  await primary?.stop();
}, 60_000);

const refreshGrants = () => sandbox.requests().filter((entry) => entry.endpoint === "token" && entry.grantType === "refresh_token");
const liveGrants = () => [...sandbox.state.store.grants.values()].filter((grant) => grant.revokedAt === undefined);

async function signedIn(): Promise<HttpBrowser> {
  const { browser, done } = await signInOverHttp(proxy.url, "/api/auth/login?returnTo=%2Fcourses");
  expect(done.headers.get("location")).toBe(`${proxy.url}/courses`);
  return browser;
}

async function statusOn(instance: { url: string }, browser: HttpBrowser, path = "/api/account/courses"): Promise<number> {
  return (await browser.snapshot().get(instance.url, path)).status;
}

const statusesEverywhere = (browser: HttpBrowser, path = "/api/session") =>
  Promise.all(instances.map((instance) => statusOn(instance, browser, path)));

interface Answer {
  at: number;
  status: number;
  retryAfter: string | null;
  /** For the polls: from the round's start to this answer. */
  tookMs?: number;
}

const doctor = () =>
  probeSentinels(
    sentinels.ports.map((port) => ({ host: "127.0.0.1", port })),
    SENTINEL_NAME,
    2_000,
  ).then(checkSentinels);

describe("Redis with Sentinel: the primary fails over", () => {
  it("the doctor and /api/ready see the Sentinels, the primary and its replica", async () => {
    expect(await doctor()).toMatchObject({
      status: "PASS",
      detail: `3 Sentinels name 127.0.0.1:${primary.port} primary of "${SENTINEL_NAME}", with 1 replica(s) connected`,
    });
    for (const instance of instances) {
      const ready = await fetch(`${instance.url}/api/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ dependencies: { redis: "ok" } });
    }
  });

  it(
    "(a) kill -9 of the primary mid-storm at access-token expiry: no 401, the member stays signed in, the grant alive, " +
      "200 again within 2 s of the promotion (503 with Retry-After before, never a 500)",
    async () => {
      member = await signedIn();
      const signedOutWithWait = await signedIn();
      const signedOutWithoutWait = await signedIn();
      const preRotation = member.snapshot();
      endedWithWait = signedOutWithWait.snapshot();
      endedWithoutWait = signedOutWithoutWait.snapshot();
      for (const copy of [endedWithWait, endedWithoutWait]) expect(await statusesEverywhere(copy)).toEqual([200, 200, 200]);
      // The storm comes once the member's access token is due for renewal.
      await untilRenewalIsDue(SHORT_ACCESS_TOKEN_TTL_SECONDS);
      // The storm's refresh then issues long-lived tokens: what follows it needs no refresh of its own.
      sandbox.setKnobs({ accessTokenTtlSeconds: 7200 });

      link.delayMs = REPLICATION_LAG_MS;
      // (b)'s sign-out: acknowledged once the replica has the "ended" marker, so only after the lag.
      const started = Date.now();
      expect((await signedOutWithWait.post(proxy.url, "/api/auth/logout", proxy.url)).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(REPLICATION_LAG_MS - 10);
      sandbox.resetRequests();

      const storm = Promise.all(
        Array.from({ length: STORM_SIZE }, async () => {
          const answer = await preRotation.snapshot().get(proxy.url, "/api/account/courses");
          member.absorb(answer);
          return { at: Date.now(), status: answer.status, retryAfter: answer.headers.get("retry-after") } satisfies Answer;
        }),
      );
      await sleep(40);
      // (d)'s sign-out, on the instance that does not wait for the replica: acknowledged at once...
      link.delayMs = LOST_WRITE_LAG_MS;
      expect((await signedOutWithoutWait.post(withoutWait!.url, "/api/auth/logout", proxy.url)).status).toBe(200);
      // ...and the primary dies before the lagging replica has its marker, while the storm is under way.
      await primary.kill();
      const killedAt = Date.now();

      // Every instance is asked with the pre-rotation cookie every 100 ms until all answer 200 in one round.
      const polled: Answer[] = [];
      let recoveredAt = 0;
      const polling = (async () => {
        while (recoveredAt === 0 && Date.now() - killedAt < 30_000) {
          const roundAt = Date.now();
          const answers = await Promise.all(
            instances.map(async (instance) => {
              const answer = await preRotation.snapshot().get(instance.url, "/api/account/courses");
              return { at: roundAt, status: answer.status, retryAfter: answer.headers.get("retry-after"), tookMs: Date.now() - roundAt };
            }),
          );
          polled.push(...answers);
          if (answers.every((answer) => answer.status === 200)) recoveredAt = roundAt;
          else await sleep(100);
        }
      })();
      const promotedAt = await sentinels.promotionOf(replica.port, 30_000);
      // The promoted replica has no replica of its own yet: the doctor says so, once the Sentinels agree
      // (the minority learns of the promotion from the others' hellos, which a loaded machine delays).
      await sentinels.agreementOn(replica.port, 10_000);
      const degraded = await doctor();
      expect([degraded.status, degraded.detail]).toEqual(["WARN", expect.stringContaining("has no replica connected") as string]);
      await polling;
      const stormAnswers = await storm;

      for (const answer of [...stormAnswers, ...polled]) {
        expect([200, 503]).toContain(answer.status);
        if (answer.status === 503) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      }
      expect(recoveredAt).toBeGreaterThan(0);
      // Each round's answers, in the instances' order, with how long each took (a slow 503 stretches its round).
      const timeline = polled.map((answer) => `${answer.at - promotedAt}:${answer.status}/${answer.tookMs ?? 0}`).join(" ");
      expect(recoveredAt - promotedAt, `after the promotion (ms:status/took ms) ${timeline}`).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
      // The member is signed in on every instance, with the cookie the storm left.
      expect(await statusesEverywhere(member, "/api/account/courses")).toEqual([200, 200, 200]);
      expect(await statusesEverywhere(member)).toEqual([200, 200, 200]);
      // The grant is alive: no refresh token was replayed (the sandbox would have revoked the grant).
      expect(refreshGrants().length).toBeGreaterThanOrEqual(1);
      expect(refreshGrants().map((grant) => grant.status)).toEqual(refreshGrants().map(() => 200));
      expect(liveGrants()).toHaveLength(1);
    },
    90_000,
  );

  it("(b) a sign-out acknowledged before the crash is still refused on every instance after the failover", async () => {
    expect(await statusesEverywhere(endedWithWait)).toEqual([401, 401, 401]);
    expect(await statusesEverywhere(endedWithWait, "/api/account/courses")).toEqual([401, 401, 401]);
  });

  it("(d) without the wait for a replica, (b) fails: the sign-out acknowledged before the crash comes back", async () => {
    // The marker never reached the replica that is now the primary: every instance opens the session again.
    expect(await statusesEverywhere(endedWithoutWait)).toEqual([200, 200, 200]);
  });

  it("(c) the old primary, restarted with its own data, rejoins as a replica and brings nothing back", async () => {
    const late = await signedIn();
    const lateCopy = late.snapshot();
    expect((await late.post(proxy.url, "/api/auth/logout", proxy.url)).status).toBe(200);

    // The same port and directory: its append-only file holds what it had when it was killed.
    await primary.launch();
    await waitUntil(
      async () => {
        const replication = await info(primary.port);
        return (
          /role:slave/.test(replication) && replication.includes(`master_port:${replica.port}`) && /master_link_status:up/.test(replication)
        );
      },
      { what: "the old primary rejoining as a replica", timeoutMs: 45_000 },
    );
    const keys = async (port: number) => ((await ask(port, ["KEYS", `${PREFIX}session-ended:*`])) as string[]).sort();
    await waitUntil(async () => JSON.stringify(await keys(primary.port)) === JSON.stringify(await keys(replica.port)), {
      what: "resync",
      timeoutMs: 5_000,
    });
    const healed = await doctor();
    expect([healed.status, healed.detail]).toEqual(["PASS", expect.stringContaining(`127.0.0.1:${replica.port} primary`) as string]);

    expect(await statusesEverywhere(endedWithWait)).toEqual([401, 401, 401]);
    expect(await statusesEverywhere(lateCopy)).toEqual([401, 401, 401]);
    // Not even the marker that only the old primary held comes back: its data was replaced by the new primary's.
    expect(await statusesEverywhere(endedWithoutWait)).toEqual([200, 200, 200]);
    expect(await statusesEverywhere(member, "/api/account/courses")).toEqual([200, 200, 200]);
    expect(refreshGrants().every((grant) => grant.status === 200)).toBe(true);
  }, 90_000);
});
