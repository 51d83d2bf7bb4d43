import "server-only";

import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
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
 * Durable writes (a write, then WAIT on the same connection: WAIT covers that connection's writes) go over
 * connections of their own to the current primary, taken in turn, so that a WAIT never holds the ordinary
 * commands up (they share the Sentinel client's connection, pipelined).
 */
const DURABLE_CONNECTIONS = 4;
/** How long the primary's count of connected replicas (INFO replication) is reused before it is asked again. */
const REPLICA_COUNT_TTL_MS = 1_000;
/**
 * The client asks a Sentinel for the primary this often. This scan, not a notification, is what finds a promoted
 * replica: node-redis 6 subscribes to "switch-master" while Sentinel publishes "+switch-master", and it refuses a
 * primary its Sentinel still flags "disconnected" (up to a second after the switch). 250 ms keeps a failover's 503s
 * within about 1.5 s of the promotion, for one short Sentinel connection per instance four times a second.
 */
const SENTINEL_SCAN_INTERVAL_MS = 250;
/** A Sentinel client that could not reach any Sentinel at start-up is created again after this long. */
const SENTINEL_RESTART_DELAY_MS = 1_000;
/**
 * Each instance says it is at work on the current primary this often (`instances:<replication id>`, its id and
 * the time), and counts as gone once it has not for three times as long.
 */
const PRESENCE_INTERVAL_MS = 10_000;
const PRESENCE_FRESH_MS = 3 * PRESENCE_INTERVAL_MS;
/** After a primary change, this instance tries to say it arrived this often until it could. */
const ARRIVAL_RETRY_MS = 100;
const ARRIVAL_ATTEMPTS = 100;
/** The replication id a server reports as its former one when it has none (never a replica promoted). */
const NO_FORMER_REPLICATION = /^0+$/;

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
  /** Tests only: this instance's id among those sharing the store (a fresh random one otherwise). */
  instanceId?: string;
}

/** The commands the store sends, as both a client and a Sentinel client (or a lease of one) offer them. */
type Commands = Pick<RedisClientType, "set" | "get" | "exists" | "eval" | "hGetAll" | "hDel" | "info">;

/** The durable-write connections to one primary (`host:port`), replaced when Sentinel names another. */
interface DurableConnections {
  primary: string;
  clients: RedisClientType[];
  next: number;
  replicas?: { count: number; checkedAt: number };
}

/** One field of an `INFO` answer (`name:value` lines), or "" when it is not there. */
function infoField(info: string, name: string): string {
  return new RegExp(`^${name}:(\\w+)`, "m").exec(info)?.[1] ?? "";
}

/**
 * Resolves at the next "ready" of `source` or after `timeoutMs`, whichever comes first; the caller then asks
 * whether it is ready. Errors meanwhile do not end the wait: the client keeps reconnecting until the time is up.
 */
function readyOrTimeout(source: Pick<EventEmitter, "on" | "off">, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    function done() {
      clearTimeout(timer);
      source.off("ready", done);
      resolve();
    }
    source.on("ready", done);
  });
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
  private readonly readiness = new EventEmitter();
  private durable: DurableConnections | undefined;
  private readonly instanceId: string;
  /** The replication id of the primary this instance last said it works on. */
  private arrivedOn: string | undefined;
  private announcing: Promise<boolean> | undefined;
  private readonly primaryReachedTasks: (() => Promise<void>)[] = [];
  /**
   * Whether this instance keeps the instance list: only where writes wait for a replica (Sentinel). Without
   * that wait no write is ever unreplicated, so no record is kept for a next primary and no lock holder waits
   * for the others to arrive; the list would cost a write every 10 s and the ACL `+info` for nothing.
   */
  private readonly keepsPresence: boolean;
  private readonly presenceTimer: NodeJS.Timeout | undefined;

  constructor(options: RedisSharedStateOptions) {
    super();
    this.prefix = options.prefix;
    this.sentinelConfig = options.sentinel;
    this.instanceId = options.instanceId ?? randomUUID();
    this.keepsPresence = options.sentinel !== undefined && !options.sentinel.skipReplicaWait;
    this.presenceTimer = this.keepsPresence ? setInterval(() => void this.announce(), PRESENCE_INTERVAL_MS).unref() : undefined;
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
   * replica reads: replicaPoolSize 0), and follows a promotion through its scan (SENTINEL_SCAN_INTERVAL_MS) and
   * Sentinel's other notices. A client that found no Sentinel at start-up gives up: it is made again.
   */
  private startSentinel(config: RedisSentinelConfig): void {
    const tls = config.tls ? { tls: true as const } : {};
    const sentinel = createSentinel({
      name: config.name,
      sentinelRootNodes: config.sentinels,
      replicaPoolSize: 0,
      scanInterval: SENTINEL_SCAN_INTERVAL_MS,
      // A command cut off by the primary's death fails (the caller answers 503) instead of being sent again to
      // the promoted replica seconds later, when its caller has long given up: a lock taken then would be nobody's.
      maxCommandRediscovers: 0,
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
      if (event.type !== "MASTER_CHANGE") return;
      if (this.everReady) logEvent("shared_state_failover", { state: "primary_changed" }, "warn");
      // Opened now, not by the first durable write after a promotion (which would wait for them).
      const node = (event as { node?: { host: string; port: number } }).node;
      if (node && !this.closed) this.openDurableConnections(node, config);
      void this.arriveSoon();
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
    let unreplicated: boolean;
    try {
      // SET NX PX: exclusive, and freed by Redis itself when the lease ends, whatever happens to the holder.
      // Durable: a lock lost in a failover would let a second holder spend the same refresh token.
      const taken = await this.durably(
        "lock",
        (commands) => commands.set(lockKey, owner, { condition: "NX", expiration: { type: "PX", value: options.leaseMs } }),
        (reply) => reply === "OK",
      );
      acquired = taken.value === "OK";
      unreplicated = taken.durability === "unreplicated";
    } catch (error) {
      // The SET may still reach a hung Redis later: free it then, so the lock does not wait out its lease.
      void this.releaseEventually(lockKey, owner, requestedAt + options.leaseMs);
      throw error;
    }
    if (!acquired) {
      await this.waitForRelease(lockKey, requestedAt + options.waitMs, options.stopWaiting);
      return { acquired: false };
    }
    try {
      return { acquired: true, value: await task({ remainingMs: () => requestedAt + options.leaseMs - Date.now(), unreplicated }) };
    } finally {
      await this.release(lockKey, owner).catch(() => void this.releaseEventually(lockKey, owner, requestedAt + options.leaseMs));
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

  onPrimaryReached(task: () => Promise<void>): void {
    this.primaryReachedTasks.push(task);
  }

  /**
   * A promoted replica keeps its former primary's replication id (`master_replid2`) and, replicated from it, the
   * instances that were at work there: each of them that is still alive must have arrived here too.
   */
  async othersReachedPrimary(): Promise<boolean> {
    // Without replica waits no lock is unreplicated and nobody asks; were it asked, nobody is kept waiting for.
    if (!this.keepsPresence) return true;
    const { current, former } = await this.replicationIds();
    if (NO_FORMER_REPLICATION.test(former)) return true;
    const [before, here] = await Promise.all([this.readFields(`instances:${former}`), this.readFields(`instances:${current}`)]);
    const aliveSince = Date.now() - PRESENCE_FRESH_MS;
    return Object.entries(before).every(([id, seenAt]) => id === this.instanceId || Number(seenAt) < aliveSince || id in here);
  }

  /**
   * Says this instance is at work on the current primary; on a primary new to it, only after its
   * `onPrimaryReached` tasks ran (the rotations it could not publish there are offered first). False when
   * Redis did not answer or a task failed: the next call tries again.
   */
  private announce(): Promise<boolean> {
    this.announcing ??= (async () => {
      try {
        const { current } = await this.replicationIds();
        if (current !== this.arrivedOn) for (const task of this.primaryReachedTasks) await task();
        await this.setField(`instances:${current}`, this.instanceId, String(Date.now()), 2 * PRESENCE_FRESH_MS);
        this.arrivedOn = current;
        return true;
      } catch {
        return false;
      } finally {
        this.announcing = undefined;
      }
    })();
    return this.announcing;
  }

  /** After a primary change or a reconnection: announces as soon as the primary answers (bounded retries). */
  private async arriveSoon(): Promise<void> {
    if (!this.keepsPresence) return;
    for (let attempt = 0; attempt < ARRIVAL_ATTEMPTS && !this.closed; attempt += 1) {
      // Not counted as failures while the connection is still down: only an answered primary is tried.
      if (this.isReady && (await this.announce())) return;
      await sleep(ARRIVAL_RETRY_MS);
    }
  }

  private async replicationIds(): Promise<{ current: string; former: string }> {
    const replication = await this.run("replication_ids", () => this.commands.info("replication"));
    return { current: infoField(replication, "master_replid"), former: infoField(replication, "master_replid2") };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.presenceTimer);
    // Gone on purpose (a deploy): after a failover, no lock holder waits for this instance to arrive.
    if (this.arrivedOn !== undefined) {
      const leaving = this.commands.hDel(this.key(`instances:${this.arrivedOn}`), this.instanceId);
      await answeredWithin(leaving, REDIS_COMMAND_TIMEOUT_MS).catch(() => undefined);
    }
    for (const client of this.durable?.clients ?? []) client.destroy();
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
    if (!this.sentinel || this.sentinelConfig?.skipReplicaWait) {
      return { value: await this.run(operation, () => write(this.commands)), durability: "not_waited" };
    }
    const { value, acknowledgedBy } = await this.run(
      operation,
      async () => {
        const { client, connections } = await this.durableClient();
        const reply = await write(client);
        if (!wrote(reply)) return { value: reply, acknowledgedBy: -1 };
        // A primary without a replica (just promoted) has nobody to wait for: the write is logged as unreplicated at once.
        if ((await this.connectedReplicas(client, connections)) === 0) return { value: reply, acknowledgedBy: 0 };
        return { value: reply, acknowledgedBy: await client.wait(1, REPLICA_ACK_TIMEOUT_MS) };
      },
      REDIS_COMMAND_TIMEOUT_MS + REPLICA_ACK_TIMEOUT_MS,
    );
    if (acknowledgedBy === -1) return { value, durability: "not_waited" };
    if (acknowledgedBy >= 1) return { value, durability: "replicated" };
    logEvent("shared_state_unreplicated", { operation, waitedMs: REPLICA_ACK_TIMEOUT_MS }, "warn");
    return { value, durability: "unreplicated" };
  }

  /** One of the durable-write connections to the primary Sentinel names now (opened, or replaced, on first use). */
  private async durableClient(): Promise<{ client: RedisClientType; connections: DurableConnections }> {
    const node = this.sentinel?.getMasterNode();
    const config = this.sentinelConfig;
    if (!node || !config) throw new SharedStateUnavailableError("Redis is not connected.");
    const connections = this.openDurableConnections(node, config);
    const client = connections.clients[(connections.next += 1) % connections.clients.length]!;
    if (!client.isReady) {
      await readyOrTimeout(client, CONNECT_TIMEOUT_MS);
      if (!client.isReady) throw new SharedStateUnavailableError("Redis is not connected.");
    }
    return { client, connections };
  }

  /** The durable-write connections to `node`, opened (and those to a former primary closed) unless they are already. */
  private openDurableConnections(node: { host: string; port: number }, config: RedisSentinelConfig): DurableConnections {
    if (this.closed) throw new SharedStateUnavailableError("The shared state was closed.");
    const primary = `${node.host}:${node.port}`;
    if (this.durable?.primary !== primary) {
      const previous = this.durable;
      const clients = Array.from({ length: DURABLE_CONNECTIONS }, () => {
        const client = createClient({
          ...(config.username !== undefined ? { username: config.username } : {}),
          ...(config.password !== undefined ? { password: config.password } : {}),
          disableOfflineQueue: true,
          commandOptions: { timeout: REDIS_COMMAND_TIMEOUT_MS + REPLICA_ACK_TIMEOUT_MS },
          socket: {
            host: node.host,
            port: node.port,
            connectTimeout: CONNECT_TIMEOUT_MS,
            reconnectStrategy: reconnectDelayMs,
            ...(config.tls ? { tls: true as const } : {}),
          },
        });
        client.on("error", () => undefined);
        client.connect().catch(() => undefined);
        return client;
      });
      this.durable = { primary, clients, next: 0 };
      for (const client of previous?.clients ?? []) client.destroy();
    }
    return this.durable;
  }

  private async connectedReplicas(client: RedisClientType, connections: DurableConnections): Promise<number> {
    const known = connections.replicas;
    if (known && Date.now() - known.checkedAt < REPLICA_COUNT_TTL_MS) return known.count;
    const replication = await client.info("replication");
    const count = Number(infoField(replication, "connected_slaves") || 0);
    connections.replicas = { count, checkedAt: Date.now() };
    return count;
  }

  private key(key: string): string {
    return `${this.prefix}${key}`;
  }

  private async release(lockKey: string, owner: string): Promise<void> {
    await this.run("unlock", () => this.commands.eval(RELEASE_IF_OWNER, { keys: [lockKey], arguments: [owner] }));
  }

  /** Releases the lock once Redis answers again (a primary back, or a replica promoted), until its lease would end anyway. */
  private async releaseEventually(lockKey: string, owner: string, leaseEnd: number): Promise<void> {
    while (Date.now() < leaseEnd && !this.closed) {
      try {
        await this.release(lockKey, owner);
        return;
      } catch {
        await sleep(200);
      }
    }
  }

  private async waitForRelease(lockKey: string, deadline: number, stopWaiting?: () => Promise<boolean>): Promise<void> {
    for (let attempt = 0; Date.now() < deadline; attempt += 1) {
      await sleep(pollDelayMs(attempt));
      if ((await this.run("lock", () => this.commands.exists(lockKey))) === 0) return;
      if (await stopWaiting?.()) return;
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
    if (!this.everReady) await readyOrTimeout(this.readiness, REDIS_COMMAND_TIMEOUT_MS);
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
    this.readiness.emit("ready");
    void this.arriveSoon();
    if (!this.connectionLost) return;
    this.connectionLost = false;
    logEvent("shared_state_error", { state: "recovered" }, "info");
  }
}
