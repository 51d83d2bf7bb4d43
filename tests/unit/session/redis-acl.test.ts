/**
 * The README's Redis ACL for the dashboard's own user (docs: "Several instances"), applied to a real
 * redis-server: every operation of the shared state succeeds under it, with REDIS_URL under the base line,
 * and with Sentinel (a primary, a replica and a Sentinel) under the base line and what the README adds for
 * it. Read from the README itself, so the lines an operator copies are the lines tested.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { RedisSharedState } from "@/lib/session/redis-shared-state";

import type { RedisServer } from "../../support/redis-server";
import { ask, closeAskConnections, RedisSentinels, startPrimaryWithReplica } from "../../support/redis-sentinels";

const readme = readFileSync(path.resolve(import.meta.dirname, "..", "..", "..", "README.md"), "utf8");
/** `ACL SETUSER dash on >password ~dash:* +get …`: the user's rules after its password. */
const readmeRules = /`ACL SETUSER dash on >password (~dash:\*(?: \+[a-z@]+)+)`/.exec(readme)?.[1]?.split(" ") ?? [];
/** "Add `+wait …` to the ACL above": what Sentinel needs besides. */
const sentinelRules = /Add `(\+[a-z@]+(?: \+[a-z@]+)*)` to the ACL above/.exec(readme)?.[1]?.split(" ") ?? [];

let primary: RedisServer;
let replica: RedisServer;
let sentinels: RedisSentinels;
let urlStore: RedisSharedState;
let sentinelStore: RedisSharedState;

beforeAll(async () => {
  ({ primary, replica } = await startPrimaryWithReplica());
  sentinels = await RedisSentinels.start(1, "acl", primary.port, { downAfterMs: 5_000, failoverTimeoutMs: 60_000 });
  await ask(primary.port, ["ACL", "SETUSER", "dash", "on", ">password", ...readmeRules]);
  await ask(primary.port, ["ACL", "SETUSER", "dash-sentinel", "on", ">password", ...readmeRules, ...sentinelRules]);
  urlStore = new RedisSharedState({ url: `redis://dash:password@127.0.0.1:${primary.port}`, prefix: "dash:" });
  sentinelStore = new RedisSharedState({
    sentinel: sentinels.storeConfig({ username: "dash-sentinel", password: "password" }),
    prefix: "dash:",
  });
});

afterAll(async () => {
  await Promise.all([urlStore?.close(), sentinelStore?.close()]);
  closeAskConnections();
  await sentinels?.stop();
  await Promise.all([replica?.stop(), primary?.stop()]);
});

const OPERATIONS: [string, (store: RedisSharedState) => Promise<unknown>][] = [
  ["ping", (store) => store.ping()],
  ["remember and recall", (store) => store.remember("a:1", "x", 60_000).then(() => store.recall("a:1"))],
  ["claim", (store) => store.claim(`callback-state:${Math.random()}`, 60_000)],
  ["count in a window (rate limits)", (store) => store.countInWindow("rate:1", 60_000)],
  [
    "set, read and delete a field (sign-ins)",
    (store) =>
      store
        .setField("sessions:1", "f", "v", 60_000)
        .then(() => store.readFields("sessions:1"))
        .then(() => store.deleteField("sessions:1", "f")),
  ],
  ["the refresh lock", (store) => store.withLock("refresh:1", { leaseMs: 1_000, waitMs: 100 }, () => Promise.resolve("held"))],
  ["publish once", (store) => store.publishOnce(`rotated:${Math.random()}`, "sealed", 60_000)],
  ["remember durably", (store) => store.rememberDurably("session-ended:1", "1", 60_000)],
  ["the instances at work on the primary", (store) => store.othersReachedPrimary()],
];

describe("the README's ACL for the dashboard's Redis user", () => {
  it("is in the README, with what Sentinel adds", () => {
    expect(readmeRules).toContain("~dash:*");
    expect(sentinelRules).toContain("+wait");
  });

  it.each(OPERATIONS)("with REDIS_URL, allows %s", async (_name, operation) => {
    await expect(operation(urlStore)).resolves.not.toBeInstanceOf(Error);
  });

  it.each(OPERATIONS)("with Sentinel, allows %s", async (_name, operation) => {
    await expect(operation(sentinelStore)).resolves.not.toBeInstanceOf(Error);
  });

  it("with Sentinel, a durable write is acknowledged by the replica, and the instance says it is at work on the primary", async () => {
    await expect(sentinelStore.rememberDurably("session-ended:2", "1", 60_000)).resolves.toBe("replicated");
    await vi.waitFor(async () => expect(await ask(primary.port, ["KEYS", "dash:instances:*"])).toHaveLength(1), { timeout: 5_000 });
  });
});
