import "server-only";

import { randomUUID } from "node:crypto";
import { createClient, createSentinel, type RedisClientType, type RedisSentinelType } from "redis";

import type { RedisSentinelConfig } from "@/lib/config/env-schema";
import { logEvent } from "@/lib/log/logger";
import { countSharedStateError } from "@/lib/metrics/record";

import {
  isSharedStateUnavailable,
  pollDelayMs,
  SharedStateBase,
  SharedStateUnavailableError,
  sleep,
  type Durability,
  type Lease,
  type LockOptions,
  type LockOutcome,
  type PublishOutcome,
  type SharedStateStore,
} from "./shared-state-core";

/** A command Redis has not answered within this time fails: the dashboard answers 503 rather than hang. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 1_000;
/** Reconnects quickly (50 ms, doubling, at most 500 ms apart), so a Redis that returns is used within a second. */
const reconnectDelayMs = (retries: number) => Math.min(50 * 2 ** retries, 500);

/**
 * How long a durable write waits for a replica's acknowledgement (WAIT 1 <ms>) before it is acknowledged
 * all the same and logged as `shared_state_unreplicated`: replication on one network takes well under a
 * millisecond, so this is only reached while the replica lags or is gone (docs/architecture.md section 8).
 */
export const REPLICA_ACK_TIMEOUT_MS = 250;
/**
 * Connections to the primary through Sentinel: one carries every ordinary command (pipelined); a durable
 * write takes another for its write and its WAIT, so that a WAIT never holds the ordinary commands up.
 */
const SENTINEL_MASTER_POOL_SIZE = 4;
/** Besides Sentinel's own notifications, the client asks the Sentinels for the primary this often. */
const SENTINEL_SCAN_INTERVAL_MS = 1_000;
/** A Sentinel client that could not reach any Sentinel at start-up is created again after this long. */
const SENTINEL_RESTART_DELAY_MS = 1_000;

/** Deletes the lock only if this owner still holds it (a lock that expired and was taken by another stays). */
const RELEASE_IF_OWNER = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`;
/** Compare-and-set on an absent key: stores ARGV[1] for ARGV[2] ms unless a value is there; returns that value, or false. */
const SET_IF_ABSENT_OR_GET = `local v = redis.call("GET", KEYS[1]) if v then return v end
redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2]) return false`;

/** INCR and, for the window's first event, its expiry: one atomic step (rate limits). */
const COUNT_IN_WINDOW = `local count = redis.call("INCR", KEYS[1])
local ttl = redis.call("PTTL", KEYS[1])
if ttl < 0 then redis.call("PEXPIRE", KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/** HSET and an expiry never shortened: one atomic step. */
const SET_FIELD = `redis.call("HSET", KEYS[1], ARGV[1], ARGV[2])
if redis.call("PTTL", KEYS[1]) < tonumber(ARGV[3]) then redis.call("PEXPIRE", KEYS[1], ARGV[3]) end
return redis.call("HLEN", KEYS[1])`;

class RedisTimeoutError extends Error {
  override readonly name = "RedisTimeoutError";
}

/**
 * node-redis bounds a command only until it is written; a Redis that hangs after reading it (stopped,
 * overloaded, a network partition) would keep the caller waiting. So every answer is awaited at most `ms`.
 */
function answeredWithin<T>(pending: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisTimeoutError(`no answer within ${ms} ms`)), ms);
  });
  // A late answer (or failure) of a command given up on is dropped.
  pending.catch(() => undefined);
  return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
}

export interface RedisSharedStateOptions {
  /** REDIS_URL: one server, used as it is (no replica is waited for). */
  url?: string | undefined;
  /** Sentinel: the current primary, followed through failovers, and WAIT for a replica on durable writes. */
  sentinel?: RedisSentinelConfig | undefined;
  /** Prepended to every key, so one Redis (and one ACL) can serve several deployments. */
  prefix: string;
}

/** The commands the store sends, as both a client and a Sentinel client (or a lease of one) offer them. */
type Commands = Pick<RedisClientType, "set" | "get" | "exists" | "eval" | "hGetAll" | "hDel">;

/** The Sentinel client's lease of one connection to the primary (RedisSentinel.use). */
interface SentinelLease {
  sendCommand(isReadonly: boolean | undefined, args: string[]): Promise<unknown>;
}

/**
 * The shared state of several instances in Redis, with the official client (node-redis): one client per
 * process, no offline queue (a command while disconnected fails at once instead of waiting), every command
 * bounded by REDIS_COMMAND_TIMEOUT_MS. Any failure becomes SharedStateUnavailableError: callers fail closed.
 */
export class RedisSharedState extends SharedStateBase implements SharedStateStore {
  private client: RedisClientType | undefined;
  private sentinel: RedisSentinelType | undefined;
  private readonly sentinelConfig: RedisSentinelConfig | undefined;
  private readonly prefix: string;
  private everReady = false;
  private connectionLost = false;
  private closed = false;
  private readonly readiness = new EventTarget();

  constructor(options: RedisSharedStateOptions) {
    super();
    this.prefix = options.prefix;
    this.sentinelConfig = options.sentinel;
    if (options.sentinel) {
      this.startSentinel(options.sentinel);
      return;
    }
    const client = createClient({
      url: options.url,
      disableOfflineQueue: true,
      commandOptions: { timeout: REDIS_COMMAND_TIMEOUT_MS },
      socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: reconnectDelayMs },
    });
    this.client = client;
    // Without an `error` listener node-redis would throw on a lost connection and end the process.
    client.on("error", (error: unknown) => this.noteConnectionLost(error));
    client.on("ready", () => this.noteReady());
    client.connect().catch((error: unknown) => this.noteConnectionLost(error));
  }

  /**
   * node-redis's Sentinel support: it asks the Sentinels for the primary, sends every command there (no
   * replica reads: replicaPoolSize 0), and follows a promotion on Sentinel's `switch-master` notice (and
   * its own scan every second). A client that found no Sentinel at start-up gives up: it is made again.
   */
  private startSentinel(config: RedisSentinelConfig): void {
    const tls = config.tls ? { tls: true as const } : {};
    const sentinel = createSentinel({
      name: config.name,
      sentinelRootNodes: config.sentinels,
      masterPoolSize: SENTINEL_MASTER_POOL_SIZE,
      replicaPoolSize: 0,
      scanInterval: SENTINEL_SCAN_INTERVAL_MS,
      commandOptions: { timeout: REDIS_COMMAND_TIMEOUT_MS },
      nodeClientOptions: {
        ...(config.username !== undefined ? { username: config.username } : {}),
        ...(config.password !== undefined ? { password: config.password } : {}),
        disableOfflineQueue: true,
        socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: reconnectDelayMs, ...tls },
      },
      sentinelClientOptions: {
        ...(config.sentinelPassword !== undefined ? { password: config.sentinelPassword } : {}),
        socket: { connectTimeout: CONNECT_TIMEOUT_MS, ...tls },
      },
    });
    this.sentinel = sentinel;
    sentinel.on("error", (error: unknown) => this.noteConnectionLost(error));
    sentinel.on("ready", () => this.noteReady());
    sentinel.on("topology-change", (event: { type?: unknown }) => {
      // Addresses only, never credentials.
      if (event.type === "MASTER_CHANGE" && this.everReady) logEvent("shared_state_failover", { state: "primary_changed" }, "warn");
    });
    sentinel.connect().catch((error: unknown) => {
      this.noteConnectionLost(error);
      if (this.closed || this.sentinel !== (sentinel as unknown)) return;
      setTimeout(() => {
        if (!this.closed) this.startSentinel(config);
      }, SENTINEL_RESTART_DELAY_MS).unref();
    });
  }

  /** The connection every ordinary command goes through: the client, or the Sentinel client (to the primary). */
  private get commands(): Commands {
    return (this.sentinel ?? this.client) as unknown as Commands;
  }

  private get isReady(): boolean {
    if (this.sentinel) return this.sentinel.isReady && this.sentinel.getMasterNode() !== undefined;
    return this.client?.isReady ?? false;
  }

  async withLock<T>(key: string, options: LockOptions, task: (lease: Lease) => Promise<T>): Promise<LockOutcome<T>> {
    const lockKey = this.key(`lock:${key}`);
    const owner = randomUUID();
    const requestedAt = Date.now();
    let acquired: boolean;
    try {
      // SET NX PX: exclusive, and freed by Redis itself when the lease ends, whatever happens to the holder.
      // Durable: a lock lost in a failover would let a second holder spend the same refresh token.
      acquired =
        (
          await this.durably(
            "lock",
            (commands) => commands.set(lockKey, owner, { condition: "NX", expiration: { type: "PX", value: options.leaseMs } }),
            (reply) => reply === "OK",
          )
        ).value === "OK";
    } catch (error) {
      // The SET may still reach a hung Redis later: free it then, so the lock does not wait out its lease.
      this.release(lockKey, owner).catch(() => undefined);
      throw error;
    }
    if (!acquired) {
      await this.waitForRelease(lockKey, requestedAt + options.waitMs);
      return { acquired: false };
    }
    try {
      return { acquired: true, value: await task({ remainingMs: () => requestedAt + options.leaseMs - Date.now() }) };
    } finally {
      await this.release(lockKey, owner).catch(() => undefined);
    }
  }

  async remember(key: string, value: string, ttlMs: number): Promise<void> {
    await this.run("remember", () =>
      this.commands.set(this.key(key), value, { expiration: { type: "PX", value: Math.max(1, Math.ceil(ttlMs)) } }),
    );
  }

  async recall(key: string): Promise<string | undefined> {
    const value = await this.run("recall", () => this.commands.get(this.key(key)));
    return value ?? undefined;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const stored = await this.run("claim", () =>
      this.commands.set(this.key(key), "1", { condition: "NX", expiration: { type: "PX", value: Math.max(1, Math.ceil(ttlMs)) } }),
    );
    return stored === "OK";
  }

  async countInWindow(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const [count, resetMs] = (await this.run("count", () =>
      this.commands.eval(COUNT_IN_WINDOW, { keys: [this.key(key)], arguments: [String(Math.max(1, Math.ceil(windowMs)))] }),
    )) as [number, number];
    return { count: Number(count), resetMs: Number(resetMs) };
  }

  async setField(key: string, field: string, value: string, ttlMs: number): Promise<number> {
    const size = await this.run("set_field", () =>
      this.commands.eval(SET_FIELD, { keys: [this.key(key)], arguments: [field, value, String(Math.max(1, Math.ceil(ttlMs)))] }),
    );
    return Number(size);
  }

  async readFields(key: string): Promise<Record<string, string>> {
    const fields = await this.run("read_fields", () => this.commands.hGetAll(this.key(key)));
    return { ...(fields as Record<string, string>) };
  }

  async deleteField(key: string, field: string): Promise<void> {
    await this.run("delete_field", () => this.commands.hDel(this.key(key), field));
  }

  /** A read, not PING: Redis answers PING even while it still loads its data after a restart, and refuses reads then. */
  async ping(): Promise<void> {
    await this.run("ping", () => this.commands.exists(this.key("readiness-probe")));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const connection = this.sentinel ?? this.client;
    if (!connection?.isOpen) return;
    try {
      await connection.close();
    } catch {
      await connection.destroy();
    }
  }

  async rememberDurably(key: string, value: string, ttlMs: number): Promise<Durability> {
    const { durability } = await this.durably("remember_durably", (commands) =>
      commands.set(this.key(key), value, { expiration: { type: "PX", value: Math.max(1, Math.ceil(ttlMs)) } }),
    );
    return durability;
  }

  async publishOnce(key: string, value: string, ttlMs: number): Promise<PublishOutcome> {
    const { value: earlier, durability } = await this.durably(
      "publish_once",
      async (commands) =>
        (await commands.eval(SET_IF_ABSENT_OR_GET, {
          keys: [this.key(key)],
          arguments: [value, String(Math.max(1, Math.ceil(ttlMs)))],
        })) as string | null,
      // Only this call's own write is waited for; an earlier writer waited for its own.
      (reply) => reply === null,
    );
    return typeof earlier === "string" ? { stored: false, value: earlier } : { stored: true, value, durability };
  }

  /**
   * Runs `write` and, with Sentinel, WAIT 1 on the same connection (WAIT covers that connection's writes),
   * so the write is acknowledged once a replica has it. Bounded: when no replica confirms within
   * REPLICA_ACK_TIMEOUT_MS the write stands, the event is logged and the caller keeps the safe side.
   * With REDIS_URL no replica is waited for (docs/architecture.md section 8).
   */
  private async durably<T>(
    operation: string,
    write: (commands: Commands) => Promise<T>,
    wrote: (reply: T) => boolean = () => true,
  ): Promise<{ value: T; durability: Durability }> {
    const sentinel = this.sentinel;
    if (!sentinel || this.sentinelConfig?.skipReplicaWait) {
      return { value: await this.run(operation, () => write(this.commands)), durability: "not_waited" };
    }
    const { value, acknowledgedBy } = await this.run(
      operation,
      () =>
        sentinel.use(async (lease) => {
          const reply = await write(lease);
          if (!wrote(reply)) return { value: reply, acknowledgedBy: -1 };
          const acknowledged = await (lease as unknown as SentinelLease).sendCommand(false, ["WAIT", "1", String(REPLICA_ACK_TIMEOUT_MS)]);
          return { value: reply, acknowledgedBy: Number(acknowledged) };
        }),
      REDIS_COMMAND_TIMEOUT_MS + REPLICA_ACK_TIMEOUT_MS,
    );
    if (acknowledgedBy === -1) return { value, durability: "not_waited" };
    if (acknowledgedBy >= 1) return { value, durability: "replicated" };
    logEvent("shared_state_unreplicated", { operation, waitedMs: REPLICA_ACK_TIMEOUT_MS }, "warn");
    return { value, durability: "unreplicated" };
  }

  private key(key: string): string {
    return `${this.prefix}${key}`;
  }

  private async release(lockKey: string, owner: string): Promise<void> {
    await this.run("unlock", () => this.commands.eval(RELEASE_IF_OWNER, { keys: [lockKey], arguments: [owner] }));
  }

  private async waitForRelease(lockKey: string, deadline: number): Promise<void> {
    for (let attempt = 0; Date.now() < deadline; attempt += 1) {
      await sleep(pollDelayMs(attempt));
      if ((await this.run("lock", () => this.commands.exists(lockKey))) === 0) return;
    }
  }

  private async run<T>(operation: string, command: () => Promise<T>, timeoutMs = REDIS_COMMAND_TIMEOUT_MS): Promise<T> {
    try {
      if (!this.isReady) await this.waitUntilReady();
      return await answeredWithin(command(), timeoutMs);
    } catch (error) {
      countSharedStateError(operation);
      if (isSharedStateUnavailable(error)) throw error;
      logEvent("shared_state_error", { operation, cause: error instanceof Error ? error.name : "unknown" }, "warn");
      throw new SharedStateUnavailableError(`Redis did not answer (${operation}).`, { cause: error });
    }
  }

  /**
   * Right after start-up the connection may still be opening: wait for it, briefly. Once it has been up,
   * a lost connection fails at once (fail fast) while the client reconnects in the background.
   */
  private async waitUntilReady(): Promise<void> {
    if (this.closed) throw new SharedStateUnavailableError("The shared state was closed.");
    if (!this.everReady) {
      await new Promise<void>((resolve) => {
        const readiness = this.readiness;
        const timer = setTimeout(done, REDIS_COMMAND_TIMEOUT_MS);
        function done() {
          clearTimeout(timer);
          readiness.removeEventListener("ready", done);
          resolve();
        }
        readiness.addEventListener("ready", done);
      });
    }
    // With Sentinel, until a connection to the current primary is up (a failover under way) commands fail at once.
    if (!this.isReady) throw new SharedStateUnavailableError("Redis is not connected.");
  }

  private noteConnectionLost(error: unknown): void {
    if (this.connectionLost || this.closed) return;
    this.connectionLost = true;
    // The URL may carry credentials: only the error's class is logged.
    logEvent("shared_state_error", { state: "connection_lost", cause: error instanceof Error ? error.name : "unknown" }, "error");
  }

  private noteReady(): void {
    this.everReady = true;
    this.readiness.dispatchEvent(new Event("ready"));
    if (!this.connectionLost) return;
    this.connectionLost = false;
    logEvent("shared_state_error", { state: "recovered" }, "info");
  }
}
