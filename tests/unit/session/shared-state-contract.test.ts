/**
 * One contract for both shared-state stores: the in-memory one (one process) and the Redis one (several
 * instances), against a real redis-server started by the test. "Two instances" are two store objects:
 * two in-memory stores over one backend, or two Redis clients to one server.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { CAPACITY_WARNING_INTERVAL_MS } from "@/lib/session/memory-shared-state";
import { InMemoryBackend, InMemorySharedState, SharedStateUnavailableError, type SharedStateStore } from "@/lib/session/shared-state";
import { RedisSharedState } from "@/lib/session/redis-shared-state";

import { captureLog } from "../../support/captured-log";
import { freePort } from "../../support/free-port";
import { RedisServer } from "../../support/redis-server";
import { ask, closeAskConnections, RedisSentinels, startPrimaryWithReplica } from "../../support/redis-sentinels";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

interface StoreKind {
  name: string;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  /** Two stores standing for two instances that share one backend. */
  twoInstances(): [SharedStateStore, SharedStateStore];
}

let redis: RedisServer | undefined;
const openStores: SharedStateStore[] = [];
let keyCounter = 0;
const uniqueKey = (name: string) => `${name}:${Date.now()}-${(keyCounter += 1)}`;

const kinds: StoreKind[] = [
  {
    name: "in-memory",
    setUp: () => Promise.resolve(),
    tearDown: () => Promise.resolve(),
    twoInstances: () => {
      const backend = new InMemoryBackend();
      return [new InMemorySharedState(backend), new InMemorySharedState(backend)];
    },
  },
  {
    name: "redis",
    setUp: async () => {
      redis = await RedisServer.start();
    },
    tearDown: async () => {
      await Promise.all(openStores.splice(0).map((store) => store.close()));
      await redis?.stop();
    },
    twoInstances: () => {
      const stores: [SharedStateStore, SharedStateStore] = [
        new RedisSharedState({ url: redis!.url, prefix: "contract:" }),
        new RedisSharedState({ url: redis!.url, prefix: "contract:" }),
      ];
      openStores.push(...stores);
      return stores;
    },
  },
];

describe.each(kinds)("shared state contract: $name", (kind) => {
  let a: SharedStateStore;
  let b: SharedStateStore;

  beforeAll(async () => {
    await kind.setUp();
    [a, b] = kind.twoInstances();
    await a.ping();
    await b.ping();
  });
  afterAll(() => kind.tearDown());

  it("remembers a value on one instance and recalls it on the other until its TTL ends", async () => {
    const key = uniqueKey("handoff");
    await a.remember(key, "sealed-value", 300);
    expect(await b.recall(key)).toBe("sealed-value");
    await sleep(450);
    expect(await b.recall(key)).toBeUndefined();
    expect(await a.recall(uniqueKey("handoff"))).toBeUndefined();
  });

  it("claims a key exactly once among 40 concurrent claims on two instances", async () => {
    const key = uniqueKey("callback-state");
    const results = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? a : b).claim(key, 5_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await a.claim(key, 5_000)).toBe(false);
  });

  it("lets a claim be made again once its TTL has ended", async () => {
    const key = uniqueKey("callback-state");
    expect(await a.claim(key, 150)).toBe(true);
    expect(await b.claim(key, 150)).toBe(false);
    await sleep(300);
    expect(await b.claim(key, 150)).toBe(true);
  });

  it("shares one lock and one rotation memory: the holder publishes before release, the waiter reads it", async () => {
    const key = uniqueKey("refresh");
    const holderMayFinish = deferred();
    const holderStarted = deferred();
    let waiterRan = false;
    const holder = a.withLock(key, { leaseMs: 5_000, waitMs: 5_000 }, async () => {
      holderStarted.resolve();
      await holderMayFinish.promise;
      await a.remember(`rotated:${key}`, "new-tokens", 120_000);
      return "rotated";
    });
    await holderStarted.promise;
    const waiter = b.withLock(key, { leaseMs: 5_000, waitMs: 5_000 }, () => {
      waiterRan = true;
      return Promise.resolve("second refresh");
    });
    await sleep(100);
    holderMayFinish.resolve();
    expect(await holder).toEqual({ acquired: true, value: "rotated" });
    expect(await waiter).toEqual({ acquired: false });
    expect(waiterRan).toBe(false);
    expect(await b.recall(`rotated:${key}`)).toBe("new-tokens");
  });

  it("releases the lock when the holder's task fails", async () => {
    const key = uniqueKey("refresh");
    await expect(a.withLock(key, { leaseMs: 5_000, waitMs: 0 }, () => Promise.reject(new Error("site down")))).rejects.toThrow("site down");
    expect(await b.withLock(key, { leaseMs: 5_000, waitMs: 0 }, () => Promise.resolve("next"))).toEqual({ acquired: true, value: "next" });
  });

  it("frees a lock whose lease ran out, and the late holder's release does not free the next holder's lock", async () => {
    const key = uniqueKey("refresh");
    const stuck = deferred();
    let seenRemaining = Infinity;
    const late = a.withLock(key, { leaseMs: 200, waitMs: 0 }, async (lease) => {
      await stuck.promise;
      seenRemaining = lease.remainingMs();
      return "late";
    });
    await sleep(350);
    const nextHolder = deferred();
    const next = b.withLock(key, { leaseMs: 5_000, waitMs: 0 }, async () => {
      stuck.resolve();
      await late;
      await nextHolder.promise;
      return "next";
    });
    await sleep(150);
    // The late holder has released (owner-checked): the lock must still be the next holder's.
    expect(await a.withLock(key, { leaseMs: 5_000, waitMs: 0 }, () => Promise.resolve("third"))).toEqual({ acquired: false });
    nextHolder.resolve();
    expect(await next).toEqual({ acquired: true, value: "next" });
    expect(seenRemaining).toBeLessThan(0);
  });

  it("waits no longer than waitMs for a lock held by another instance", async () => {
    const key = uniqueKey("refresh");
    const release = deferred();
    const holder = a.withLock(key, { leaseMs: 5_000, waitMs: 0 }, () => release.promise);
    await sleep(20);
    const started = Date.now();
    expect(await b.withLock(key, { leaseMs: 5_000, waitMs: 200 }, () => Promise.resolve("no"))).toEqual({ acquired: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(Date.now() - started).toBeLessThan(2_000);
    release.resolve();
    await holder;
  });

  it("counts events in a window atomically across instances, and starts a new window after it ends", async () => {
    const [first, second] = kind.twoInstances();
    const key = uniqueKey("rate");
    const counts = await Promise.all(Array.from({ length: 30 }, (_, index) => (index % 2 ? first : second).countInWindow(key, 300)));
    expect(counts.map(({ count }) => count).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    expect(Math.max(...counts.map(({ resetMs }) => resetMs))).toBeLessThanOrEqual(300);
    await sleep(350);
    expect((await first.countInWindow(key, 300)).count).toBe(1);
  });

  it("keeps a small map of fields shared by the instances, expiring as a whole", async () => {
    const [first, second] = kind.twoInstances();
    const key = uniqueKey("member-sessions");
    expect(await first.setField(key, "a", "one", 300)).toBe(1);
    expect(await second.setField(key, "b", "two", 100)).toBe(2);
    expect(await second.readFields(key)).toEqual({ a: "one", b: "two" });
    await first.deleteField(key, "a");
    expect(await second.readFields(key)).toEqual({ b: "two" });
    // The shorter TTL of the second write did not shorten the map's life.
    await sleep(150);
    expect(await first.readFields(key)).toEqual({ b: "two" });
    await sleep(250);
    expect(await first.readFields(key)).toEqual({});
  });

  it("stops waiting for a lock as soon as stopWaiting says so (the holder published but cannot release)", async () => {
    const key = uniqueKey("refresh");
    const published = uniqueKey("rotated");
    const release = deferred();
    const holder = a.withLock(key, { leaseMs: 10_000, waitMs: 0 }, () => release.promise);
    await sleep(20);
    setTimeout(() => void a.remember(published, "tokens", 5_000), 150);
    const started = Date.now();
    const stopWaiting = async () => (await b.recall(published)) !== undefined;
    expect(await b.withLock(key, { leaseMs: 10_000, waitMs: 8_000, stopWaiting }, () => Promise.resolve("no"))).toEqual({
      acquired: false,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(Date.now() - started).toBeLessThan(1_000);
    release.resolve();
    await holder;
  });

  it("remembers durably: the value is there for the other instance until its TTL ends", async () => {
    const key = uniqueKey("session-ended");
    // Neither the in-memory store nor REDIS_URL has a replica to wait for (Sentinel does: tests/failover).
    expect(await a.rememberDurably(key, "1", 300)).toBe("not_waited");
    expect(await b.recall(key)).toBe("1");
    await sleep(450);
    expect(await b.recall(key)).toBeUndefined();
  });

  it("publishes a record once (compare-and-set): of 20 concurrent writers the first value stays, every writer learns it", async () => {
    const key = uniqueKey("rotated");
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? a : b).publishOnce(key, `tokens-${index}`, 5_000)),
    );
    const stored = outcomes.filter((outcome) => outcome.stored);
    expect(stored).toHaveLength(1);
    const winner = stored[0]!.value;
    expect(outcomes.every((outcome) => outcome.value === winner)).toBe(true);
    expect(await a.recall(key)).toBe(winner);
    expect(await b.publishOnce(key, "later", 5_000)).toEqual({ stored: false, value: winner });
  });

  it("lets a record be published again once its TTL has ended", async () => {
    const key = uniqueKey("rotated");
    expect((await a.publishOnce(key, "first", 150)).stored).toBe(true);
    await sleep(300);
    expect(await b.publishOnce(key, "second", 150)).toMatchObject({ stored: true, value: "second" });
  });

  it("runs a task once for concurrent callers of one process", async () => {
    let runs = 0;
    const task = async () => {
      runs += 1;
      await sleep(30);
      return runs;
    };
    const results = await Promise.all(Array.from({ length: 10 }, () => a.singleFlight("flight", task)));
    expect(results).toEqual(Array.from({ length: 10 }, () => 1));
  });
});

describe("in-memory store bounds", () => {
  it("keeps at most maxEntriesPerKind entries of each kind, dropping the oldest first", async () => {
    const backend = new InMemoryBackend(() => Date.now(), 100);
    const store = new InMemorySharedState(backend);
    for (let index = 0; index < 250; index += 1) await store.remember(`rotated:${index}`, "1", 60_000 + index);
    await store.remember("handoff:kept", "code", 120_000);
    expect(backend.size("rotated")).toBe(100);
    expect(backend.size("handoff")).toBe(1);
    expect(await store.recall("rotated:249")).toBe("1");
    expect(await store.recall("rotated:0")).toBeUndefined();
    expect(await store.recall("handoff:kept")).toBe("code");
  });

  it("never evicts an ended marker for room: the write fails closed, and the capacity warning is logged once per interval", async () => {
    const log = captureLog();
    let now = 1_000_000;
    const backend = new InMemoryBackend(() => now, 10);
    const store = new InMemorySharedState(backend);
    for (let index = 0; index < 10; index += 1) await store.remember(`session-ended:${index}`, "1", 600_000);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await expect(store.remember(`session-ended:new-${attempt}`, "1", 600_000)).rejects.toBeInstanceOf(SharedStateUnavailableError);
    }
    expect(await store.recall("session-ended:0")).toBe("1");
    for (let index = 0; index < 5; index += 1) await store.remember(`rotated:${index + 20}`, "1", 600_000).catch(() => undefined);
    const warnings = () => log.events().filter((line) => line.event === "shared_state_error" && line.reason === "capacity");
    expect(warnings().map((line) => line.kind)).toEqual(["session-ended"]);
    now += CAPACITY_WARNING_INTERVAL_MS;
    await store.remember("session-ended:later", "1", 600_000).catch(() => undefined);
    expect(warnings()).toHaveLength(2);
  });

  it("drops expired entries, so a steady load keeps the size flat", async () => {
    let now = 0;
    const backend = new InMemoryBackend(() => now, 10_000);
    const store = new InMemorySharedState(backend);
    for (let second = 0; second < 300; second += 1) {
      now = second * 1_000;
      for (let index = 0; index < 20; index += 1) await store.claim(`callback-state:${second}-${index}`, 10_000);
    }
    // 10 s of TTL at 20 a second, plus at most one second not yet swept.
    expect(backend.size("callback-state")).toBeLessThanOrEqual(240);
  });
});

describe("redis store failures", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server.stop();
  });

  it("gives a typed error within 1 s when nothing listens at REDIS_URL", async () => {
    const store = new RedisSharedState({ url: `redis://127.0.0.1:${await freePort()}`, prefix: "dead:" });
    try {
      for (const attempt of [() => store.recall("anything"), () => store.claim("callback-state:x", 1_000), () => store.ping()]) {
        const started = Date.now();
        await expect(attempt()).rejects.toBeInstanceOf(SharedStateUnavailableError);
        expect(Date.now() - started).toBeLessThan(1_000);
      }
    } finally {
      await store.close();
    }
  });

  it("fails within 1 s while Redis hangs, and works again once it answers", async () => {
    const store = new RedisSharedState({ url: server.url, prefix: "hang:" });
    try {
      await store.remember("session-ended:a", "1", 60_000);
      server.pause();
      const started = Date.now();
      await expect(store.recall("session-ended:a")).rejects.toBeInstanceOf(SharedStateUnavailableError);
      await expect(store.withLock("refresh:x", { leaseMs: 5_000, waitMs: 5_000 }, () => Promise.resolve("ran"))).rejects.toBeInstanceOf(
        SharedStateUnavailableError,
      );
      expect(Date.now() - started).toBeLessThan(2_000);
      server.resume();
      expect(await store.recall("session-ended:a")).toBe("1");
      // The lock requested while Redis hung was released once it answered: it does not wait out its lease.
      await sleep(100);
      expect(await store.withLock("refresh:x", { leaseMs: 5_000, waitMs: 0 }, () => Promise.resolve("ran"))).toEqual({
        acquired: true,
        value: "ran",
      });
    } finally {
      server.resume();
      await store.close();
    }
  });

  it("fails at once while Redis is down, and reconnects by itself within seconds after a restart", async () => {
    const store = new RedisSharedState({ url: server.url, prefix: "restart:" });
    try {
      await store.remember("session-ended:b", "1", 60_000);
      await server.kill();
      const started = Date.now();
      await expect(store.recall("session-ended:b")).rejects.toBeInstanceOf(SharedStateUnavailableError);
      expect(Date.now() - started).toBeLessThan(1_000);
      await server.launch();
      const restarted = Date.now();
      let value: string | undefined;
      while (Date.now() - restarted < 3_000 && value === undefined)
        value = await store.recall("session-ended:b").catch(() => sleep(50).then(() => undefined));
      // Persisted by the append-only file: an ended session stays ended across the restart.
      expect(value).toBe("1");
      expect(Date.now() - restarted).toBeLessThan(3_000);
    } finally {
      await store.close();
    }
  });
});

describe("redis store after a failover (docs/architecture.md section 8)", () => {
  const PREFIX = "arrival:";
  const servers: RedisServer[] = [];
  const stores: RedisSharedState[] = [];
  let sentinels: RedisSentinels | undefined;
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    closeAskConnections();
    await sentinels?.stop();
    await Promise.all(servers.map((server) => server.stop()));
  });

  /** An instance of the dashboard configured with REDIS_SENTINELS (replica waits on, as in production). */
  const sentinelInstance = (instanceId: string) => {
    if (!sentinels) throw new Error("no Sentinel yet");
    const store = new RedisSharedState({ sentinel: sentinels.storeConfig(), prefix: PREFIX, instanceId });
    stores.push(store);
    return store;
  };
  const replicationIdOf = async (port: number) => /^master_replid:(\w+)/m.exec(String(await ask(port, ["INFO", "replication"])))?.[1] ?? "";
  /** The instances that said they are at work on the primary whose replication id the server on `port` has now. */
  const presence = async (port: number, replicationId?: string) =>
    ((await ask(port, ["HKEYS", `${PREFIX}instances:${replicationId ?? (await replicationIdOf(port))}`])) as string[]).sort();

  it("tells a lock holder when every instance of the former primary has reached the promoted one, each after its offers", async () => {
    const { primary, replica } = await startPrimaryWithReplica();
    servers.push(primary, replica);
    sentinels = await RedisSentinels.start(1, "arrival", primary.port, { downAfterMs: 1_000, failoverTimeoutMs: 60_000 });
    const former = await replicationIdOf(primary.port);
    // Instances b and c at work on the primary, and a, which is about to die: what they say there reaches the replica.
    const b = sentinelInstance("b");
    const leaving = sentinelInstance("c");
    await ask(primary.port, ["HSET", `${PREFIX}instances:${former}`, "a", String(Date.now())]);
    await vi.waitFor(async () => expect(await presence(replica.port, former)).toEqual(["a", "b", "c"]), { timeout: 5_000 });
    // A primary that was never a replica: nobody to wait for.
    expect(await b.othersReachedPrimary()).toBe(true);
    // c is stopped (a deploy): it leaves the list, and nobody will wait for it.
    await leaving.close();
    await vi.waitFor(async () => expect(await presence(replica.port, former)).toEqual(["a", "b"]), { timeout: 5_000 });

    await sentinels.replicaKnown(replica.port, 15_000);
    await ask(sentinels.ports[0]!, ["SENTINEL", "FAILOVER", "arrival"]);
    await sentinels.promotionOf(replica.port, 15_000);
    // b follows the promotion by itself and says it arrived; a was at work on the former primary and has not come.
    await vi.waitFor(async () => expect(await presence(replica.port)).toEqual(["b"]), { timeout: 10_000 });
    expect(await b.othersReachedPrimary()).toBe(false);

    const a = sentinelInstance("a");
    a.onPrimaryReached(() => a.remember("rotated:offered-by-a", "sealed tokens", 60_000));
    await vi.waitFor(async () => expect(await b.othersReachedPrimary()).toBe(true), { timeout: 10_000 });
    // a offered what it kept before it said it arrived.
    expect(await b.recall("rotated:offered-by-a")).toBe("sealed tokens");
  });

  it("keeps no instance list with REDIS_URL, where no write waits for a replica, and has nobody to wait for", async () => {
    const server = await RedisServer.start();
    servers.push(server);
    const alone = new RedisSharedState({ url: server.url, prefix: PREFIX, instanceId: "alone" });
    stores.push(alone);
    await vi.waitFor(() => alone.ping(), { timeout: 5_000 });
    expect(await alone.othersReachedPrimary()).toBe(true);
    // An instance that keeps the list says it arrived as soon as the server answers: give it the time to.
    await sleep(500);
    expect(await ask(server.port, ["KEYS", `${PREFIX}*`])).toEqual([]);
  });
});
