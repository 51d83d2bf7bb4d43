import "server-only";

import { randomUUID } from "node:crypto";
import { createClient, type RedisClientType } from "redis";

import { logEvent } from "@/lib/log/logger";
import { countSharedStateError } from "@/lib/metrics/record";

import {
  isSharedStateUnavailable,
  pollDelayMs,
  SharedStateBase,
  SharedStateUnavailableError,
  sleep,
  type Lease,
  type LockOptions,
  type LockOutcome,
  type SharedStateStore,
} from "./shared-state-core";

/** A command Redis has not answered within this time fails: the dashboard answers 503 rather than hang. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 1_000;
/** Reconnects quickly (50 ms, doubling, at most 500 ms apart), so a Redis that returns is used within a second. */
const reconnectDelayMs = (retries: number) => Math.min(50 * 2 ** retries, 500);

/** Deletes the lock only if this owner still holds it (a lock that expired and was taken by another stays). */
const RELEASE_IF_OWNER = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`;

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
  url: string;
  /** Prepended to every key, so one Redis (and one ACL) can serve several deployments. */
  prefix: string;
}

/**
 * The shared state of several instances in Redis, with the official client (node-redis): one client per
 * process, no offline queue (a command while disconnected fails at once instead of waiting), every command
 * bounded by REDIS_COMMAND_TIMEOUT_MS. Any failure becomes SharedStateUnavailableError: callers fail closed.
 */
export class RedisSharedState extends SharedStateBase implements SharedStateStore {
  private readonly client: RedisClientType;
  private readonly prefix: string;
  private everReady = false;
  private connectionLost = false;
  private closed = false;

  constructor(options: RedisSharedStateOptions) {
    super();
    this.prefix = options.prefix;
    this.client = createClient({
      url: options.url,
      disableOfflineQueue: true,
      commandOptions: { timeout: REDIS_COMMAND_TIMEOUT_MS },
      socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: reconnectDelayMs },
    });
    // Without an `error` listener node-redis would throw on a lost connection and end the process.
    this.client.on("error", (error: unknown) => this.noteConnectionLost(error));
    this.client.on("ready", () => this.noteReady());
    this.client.connect().catch((error: unknown) => this.noteConnectionLost(error));
  }

  async withLock<T>(key: string, options: LockOptions, task: (lease: Lease) => Promise<T>): Promise<LockOutcome<T>> {
    const lockKey = this.key(`lock:${key}`);
    const owner = randomUUID();
    const requestedAt = Date.now();
    let acquired: boolean;
    try {
      // SET NX PX: exclusive, and freed by Redis itself when the lease ends, whatever happens to the holder.
      acquired =
        (await this.run("lock", () =>
          this.client.set(lockKey, owner, { condition: "NX", expiration: { type: "PX", value: options.leaseMs } }),
        )) === "OK";
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
      this.client.set(this.key(key), value, { expiration: { type: "PX", value: Math.max(1, Math.ceil(ttlMs)) } }),
    );
  }

  async recall(key: string): Promise<string | undefined> {
    const value = await this.run("recall", () => this.client.get(this.key(key)));
    return value ?? undefined;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const stored = await this.run("claim", () =>
      this.client.set(this.key(key), "1", { condition: "NX", expiration: { type: "PX", value: Math.max(1, Math.ceil(ttlMs)) } }),
    );
    return stored === "OK";
  }

  /** A read, not PING: Redis answers PING even while it still loads its data after a restart, and refuses reads then. */
  async ping(): Promise<void> {
    await this.run("ping", () => this.client.exists(this.key("readiness-probe")));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.client.isOpen) return;
    try {
      await this.client.close();
    } catch {
      this.client.destroy();
    }
  }

  private key(key: string): string {
    return `${this.prefix}${key}`;
  }

  private async release(lockKey: string, owner: string): Promise<void> {
    await this.run("unlock", () => this.client.eval(RELEASE_IF_OWNER, { keys: [lockKey], arguments: [owner] }));
  }

  private async waitForRelease(lockKey: string, deadline: number): Promise<void> {
    for (let attempt = 0; Date.now() < deadline; attempt += 1) {
      await sleep(pollDelayMs(attempt));
      if ((await this.run("lock", () => this.client.exists(lockKey))) === 0) return;
    }
  }

  private async run<T>(operation: string, command: () => Promise<T>): Promise<T> {
    try {
      if (!this.client.isReady) await this.waitUntilReady();
      return await answeredWithin(command(), REDIS_COMMAND_TIMEOUT_MS);
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
        const timer = setTimeout(done, REDIS_COMMAND_TIMEOUT_MS);
        const client = this.client;
        function done() {
          clearTimeout(timer);
          client.off("ready", done);
          resolve();
        }
        client.on("ready", done);
      });
    }
    if (!this.client.isReady) throw new SharedStateUnavailableError("Redis is not connected.");
  }

  private noteConnectionLost(error: unknown): void {
    if (this.connectionLost || this.closed) return;
    this.connectionLost = true;
    // The URL may carry credentials: only the error's class is logged.
    logEvent("shared_state_error", { state: "connection_lost", cause: error instanceof Error ? error.name : "unknown" }, "error");
  }

  private noteReady(): void {
    this.everReady = true;
    if (!this.connectionLost) return;
    this.connectionLost = false;
    logEvent("shared_state_error", { state: "recovered" }, "info");
  }
}
