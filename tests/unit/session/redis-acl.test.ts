/**
 * The README's Redis ACL for the dashboard's own user (docs: "Several instances"), applied to a real
 * redis-server: every operation of the shared state succeeds under it. Read from the README itself, so the
 * line an operator copies is the line tested.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { RedisSharedState } from "@/lib/session/redis-shared-state";

import { RedisServer } from "../../support/redis-server";
import { ask, closeAskConnections } from "../../support/redis-sentinels";

const readme = readFileSync(path.resolve(import.meta.dirname, "..", "..", "..", "README.md"), "utf8");
/** `ACL SETUSER dash on >password ~dash:* +get …`: the user's rules after its password. */
const readmeRules = /`ACL SETUSER dash on >password (~dash:\*(?: \+[a-z@]+)+)`/.exec(readme)?.[1]?.split(" ") ?? [];

let server: RedisServer;
let store: RedisSharedState;

beforeAll(async () => {
  server = await RedisServer.start();
  await ask(server.port, ["ACL", "SETUSER", "dash", "on", ">password", ...readmeRules]);
  store = new RedisSharedState({ url: `redis://dash:password@127.0.0.1:${server.port}`, prefix: "dash:" });
});

afterAll(async () => {
  await store?.close();
  closeAskConnections();
  await server?.stop();
});

describe("the README's ACL for the dashboard's Redis user", () => {
  it("is in the README", () => {
    expect(readmeRules).toContain("~dash:*");
  });

  it.each([
    ["ping", () => store.ping()],
    ["remember and recall", () => store.remember("a:1", "x", 60_000).then(() => store.recall("a:1"))],
    ["claim", () => store.claim("callback-state:1", 60_000)],
    ["count in a window (rate limits)", () => store.countInWindow("rate:1", 60_000)],
    [
      "set, read and delete a field (sign-ins)",
      () =>
        store
          .setField("sessions:1", "f", "v", 60_000)
          .then(() => store.readFields("sessions:1"))
          .then(() => store.deleteField("sessions:1", "f")),
    ],
    ["the refresh lock", () => store.withLock("refresh:1", { leaseMs: 1_000, waitMs: 100 }, () => Promise.resolve("held"))],
    ["publish once", () => store.publishOnce("rotated:1", "sealed", 60_000)],
    ["remember durably", () => store.rememberDurably("session-ended:1", "1", 60_000)],
    ["the instances at work on the primary", () => store.othersReachedPrimary()],
  ])("allows %s", async (_name, operation: () => Promise<unknown>) => {
    await expect(operation()).resolves.not.toBeInstanceOf(Error);
  });
});
