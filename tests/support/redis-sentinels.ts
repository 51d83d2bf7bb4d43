/**
 * Debian's `redis-sentinel` for tests: Sentinel processes on free loopback ports, each with its own
 * configuration file in a temporary directory (Sentinel rewrites it), watching one primary under `name`.
 * Stopped by PID. `ask` sends one command to a server or Sentinel with the official client.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient, type RedisClientType } from "redis";

import type { RedisSentinelConfig } from "@/lib/config/env-schema";

import { freePort } from "./free-port";
import { RedisServer } from "./redis-server";
import { waitUntil } from "./wait-until";

export const REDIS_SENTINEL_BINARY = process.env.REDIS_SENTINEL_PATH ?? "redis-sentinel";

export interface SentinelTimings {
  /** How long a primary must not answer before a Sentinel deems it down. */
  downAfterMs: number;
  /** Sentinel's failover-timeout (also how long it leaves a replica that replicates another address alone). */
  failoverTimeoutMs: number;
}

/**
 * The open connection `ask` reuses per server or Sentinel. The failover test polls several times a second
 * while the dashboards recover, and each new node-redis client costs milliseconds of CPU (its commands are
 * attached to every client): made per question, they took most of a core on a two-core machine, away from
 * the processes being timed. Dropped when the server closes it (a killed primary), made again on the next question.
 */
const connections = new Map<number, Promise<RedisClientType>>();

function connectionTo(port: number): Promise<RedisClientType> {
  const open = connections.get(port);
  if (open) return open;
  const client: RedisClientType = createClient({ socket: { host: "127.0.0.1", port, connectTimeout: 1_000, reconnectStrategy: false } });
  const connecting = client.connect().then(() => client);
  const forget = () => {
    if (connections.get(port) === connecting) connections.delete(port);
  };
  client.on("error", forget);
  client.on("end", forget);
  connecting.catch(forget);
  connections.set(port, connecting);
  return connecting;
}

/** One command to the server or Sentinel on `port`, over the connection kept for it. */
export async function ask(port: number, args: string[]): Promise<unknown> {
  const client = await connectionTo(port);
  return client.sendCommand(args);
}

/**
 * A primary and a replica of it, once the primary names the replica online: a write's wait for a replica
 * (WAIT) means something only then. The primary sends its data at once, not after Redis's default 5 s
 * wait for more replicas to share the transfer.
 */
export async function startPrimaryWithReplica(): Promise<{ primary: RedisServer; replica: RedisServer }> {
  const primary = await RedisServer.start(["--repl-diskless-sync-delay", "0"]);
  const replica = await RedisServer.start(["--replicaof", "127.0.0.1", String(primary.port)]).catch(async (error: unknown) => {
    await primary.stop();
    throw error;
  });
  const deadline = Date.now() + 10_000;
  while (!/^slave0:.*state=online/m.test(String(await ask(primary.port, ["INFO", "replication"])))) {
    if (Date.now() > deadline) {
      await Promise.all([replica.stop(), primary.stop()]);
      throw new Error(`The replica on port ${replica.port} did not come online within 10 s.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { primary, replica };
}

/** Closes every connection `ask` kept (a suite's end). */
export function closeAskConnections(): void {
  for (const connecting of connections.values())
    void connecting.then(
      (client) => client.destroy(),
      () => undefined,
    );
  connections.clear();
}

export class RedisSentinels {
  private readonly children: ChildProcess[] = [];

  private constructor(
    readonly ports: number[],
    readonly name: string,
    private readonly dir: string,
  ) {}

  static async start(count: number, name: string, primaryPort: number, timings: SentinelTimings): Promise<RedisSentinels> {
    const ports: number[] = [];
    for (let index = 0; index < count; index += 1) ports.push(await freePort());
    const sentinels = new RedisSentinels(ports, name, mkdtempSync(path.join(tmpdir(), "dash-sentinel-")));
    const quorum = Math.floor(count / 2) + 1;
    for (const port of ports) {
      const file = path.join(sentinels.dir, `sentinel-${port}.conf`);
      writeFileSync(
        file,
        [
          `port ${port}`,
          "bind 127.0.0.1",
          "daemonize no",
          `dir ${sentinels.dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${primaryPort} ${quorum}`,
          `sentinel down-after-milliseconds ${name} ${timings.downAfterMs}`,
          `sentinel failover-timeout ${name} ${timings.failoverTimeoutMs}`,
          `sentinel parallel-syncs ${name} 1`,
          "",
        ].join("\n"),
      );
      const child = spawn(REDIS_SENTINEL_BINARY, [file], { stdio: "ignore" });
      sentinels.children.push(child);
    }
    await waitUntil(
      async () => {
        for (const port of ports) if (!(await sentinels.primaryPortAt(port))) return false;
        return true;
      },
      { what: "every Sentinel naming a primary", timeoutMs: 10_000, intervalMs: 25 },
    );
    return sentinels;
  }

  /** What a dashboard configured with these Sentinels is given (replica waits on, as in production). */
  storeConfig(credentials: { username?: string; password?: string } = {}): RedisSentinelConfig {
    return {
      sentinels: this.ports.map((port) => ({ host: "127.0.0.1", port })),
      name: this.name,
      username: credentials.username,
      password: credentials.password,
      sentinelPassword: undefined,
      tls: false,
      skipReplicaWait: false,
    };
  }

  /** REDIS_SENTINELS as the dashboard reads it. */
  get addresses(): string {
    return this.ports.map((port) => `127.0.0.1:${port}`).join(",");
  }

  /** The primary's port as the Sentinel on `port` names it now (undefined when it does not answer). */
  async primaryPortAt(port: number): Promise<number | undefined> {
    try {
      const reply = (await ask(port, ["SENTINEL", "GET-MASTER-ADDR-BY-NAME", this.name])) as string[] | null;
      return reply ? Number(reply[1]) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Resolves with the time (Date.now()) at which a majority of the Sentinels first names `port` as the primary. */
  async promotionOf(port: number, timeoutMs: number): Promise<number> {
    return waitUntil(
      async () => {
        const named = await Promise.all(this.ports.map((sentinel) => this.primaryPortAt(sentinel)));
        return named.filter((candidate) => candidate === port).length * 2 > this.ports.length && Date.now();
      },
      { what: `a majority of the Sentinels naming ${port} primary`, timeoutMs, intervalMs: 25 },
    );
  }

  /** Resolves once every Sentinel names `port` as the primary (the last learn of a promotion from the others' hellos). */
  async agreementOn(port: number, timeoutMs: number): Promise<void> {
    await waitUntil(
      async () => {
        const named = await Promise.all(this.ports.map((sentinel) => this.primaryPortAt(sentinel)));
        return named.every((candidate) => candidate === port);
      },
      { what: `every Sentinel naming ${port} primary`, timeoutMs, intervalMs: 25 },
    );
  }

  /**
   * Resolves once every Sentinel knows the replica on `port` as a healthy one, in sync with the primary.
   * A Sentinel learns of replicas from the primary's INFO, every 10 s: a replica that connected after the
   * first one is unknown until the next, and a `SENTINEL FAILOVER` asked before then finds no replica to promote.
   */
  async replicaKnown(port: number, timeoutMs: number): Promise<void> {
    await waitUntil(
      async () => {
        for (const sentinel of this.ports) {
          // node-redis answers each replica as an object of its fields.
          const replicas = (await ask(sentinel, ["SENTINEL", "REPLICAS", this.name])) as Record<string, string>[];
          const known = replicas.some(
            (fields) => fields.port === String(port) && fields.flags === "slave" && fields["master-link-status"] === "ok",
          );
          if (!known) return false;
        }
        return true;
      },
      { what: `every Sentinel knowing the replica on ${port}`, timeoutMs, intervalMs: 25 },
    );
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGKILL");
          }),
      ),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
