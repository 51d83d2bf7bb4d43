import "server-only";

export { isSharedStateUnavailable, SharedStateUnavailableError } from "./errors";

/**
 * The state that several dashboard instances must share (docs/architecture.md section 8): the refresh lock, the short
 * memory of "this refresh token was just rotated into that one", sessions ended by sign-out or revocation,
 * consumed login states and embedded handoff codes. Every instance is otherwise stateless. In memory for
 * one process (lib/session/memory-shared-state.ts), in Redis for several (`REDIS_URL`,
 * lib/session/redis-shared-state.ts).
 */
export interface SharedStateStore {
  /** Process-local: concurrent callers in this process with the same key share one run of `task`. */
  singleFlight<T>(key: string, task: () => Promise<T>): Promise<T>;
  /**
   * Runs `task` holding the lock `key`, exclusive across every instance sharing the store, for at most
   * `leaseMs` (then the lock frees itself, whatever happened to its holder). The holder releases it after
   * `task` settles, only if it still owns it. When another holder has the lock, waits up to `waitMs` for
   * it to be released and returns `{ acquired: false }` without running `task`: the caller then reads
   * what the holder published.
   */
  withLock<T>(key: string, options: LockOptions, task: (lease: Lease) => Promise<T>): Promise<LockOutcome<T>>;
  /** Remembers a value for `ttlMs`. */
  remember(key: string, value: string, ttlMs: number): Promise<void>;
  recall(key: string): Promise<string | undefined>;
  /** Stores `key` only if absent, in one atomic step; true when this call stored it (first use). */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /**
   * Counts one more event under `key` in a fixed window of `windowMs` that starts with the first event, in
   * one atomic step on every store (rate limits across instances). Returns the count so far and the
   * milliseconds until the window ends.
   */
  countInWindow(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /**
   * Sets `field` of the small map `key` to `value`, and keeps the whole map at least `ttlMs` longer (one
   * atomic step). Returns how many fields the map holds.
   */
  setField(key: string, field: string, value: string, ttlMs: number): Promise<number>;
  /** Every field of the map `key` (empty when it has none). */
  readFields(key: string): Promise<Record<string, string>>;
  /** Removes `field` from the map `key`. */
  deleteField(key: string, field: string): Promise<void>;
  /** Resolves when the store answers (readiness); throws SharedStateUnavailableError otherwise. */
  ping(): Promise<void>;
  /** Releases connections (graceful shutdown). */
  close(): Promise<void>;
  /**
   * `remember` for what a member was told about (the "ended" marker of a sign-out or a revoke): with Redis
   * behind Sentinel it is acknowledged only once a replica has it (WAIT 1, bounded by REPLICA_ACK_TIMEOUT_MS),
   * so that a failover does not lose it (docs/architecture.md section 8). When no replica confirms in time,
   * it resolves all the same ("unreplicated", logged as `shared_state_unreplicated`): the caller keeps the
   * safe side. Throws SharedStateUnavailableError when the primary does not answer.
   */
  rememberDurably(key: string, value: string, ttlMs: number): Promise<Durability>;
  /**
   * Compare-and-set for a record that is written once (the tokens a refresh token was rotated into): stores
   * `value` under `key` only if nothing is stored there yet, in one atomic step, durably as `rememberDurably`.
   * Resolves with what the key holds afterwards: this value (`stored: true`) or the one an earlier writer stored.
   */
  publishOnce(key: string, value: string, ttlMs: number): Promise<PublishOutcome>;
  /**
   * Redis with replica waits (Sentinel): runs `task` each time this instance reaches a primary it has not worked
   * on yet (a promoted replica), before it tells the other instances it is there (`othersReachedPrimary`). A task
   * that fails is run again. Without replica waits no write is unreplicated, so nothing is kept to offer: never run.
   */
  onPrimaryReached?(task: () => Promise<void>): void;
  /**
   * Redis, after a failover: true once every instance that was at work on the former primary has reached
   * this one (each having run its `onPrimaryReached` tasks first); true as well when no failover came before,
   * and always without replica waits (REDIS_URL), where no instance list is kept.
   */
  othersReachedPrimary?(): Promise<boolean>;
}

/**
 * How far a durable write got: a replica acknowledged it; no replica did in time; or the store has none to
 * wait for (in memory, or REDIS_URL, where no replica is waited for: docs/architecture.md section 8).
 */
export type Durability = "replicated" | "unreplicated" | "not_waited";

export type PublishOutcome = { stored: true; value: string; durability: Durability } | { stored: false; value: string };

export interface LockOptions {
  leaseMs: number;
  waitMs: number;
  /**
   * Asked between polls while another holder has the lock: true stops the wait early (`{ acquired: false }`),
   * e.g. once what the holder publishes is there although its release never came (it lost Redis in a failover).
   */
  stopWaiting?: () => Promise<boolean>;
}

export interface Lease {
  /** Milliseconds before the lock frees itself, measured from before it was requested (so never optimistic). */
  remainingMs(): number;
  /**
   * True when no replica acknowledged the lock (Sentinel: a primary just promoted, or its replica down): a
   * holder on the old primary may still be at work, its lock lost with it (docs/architecture.md section 8).
   */
  unreplicated?: boolean;
}

export type LockOutcome<T> = { acquired: true; value: T } | { acquired: false };

/** Waiting for a lock: short polls first, then up to 50 ms apart. */
export function pollDelayMs(attempt: number): number {
  return Math.min(5 * 2 ** attempt, 50);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Process-local single-flight, shared by both stores. */
class LocalFlights {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const started = task().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }
}

export abstract class SharedStateBase {
  private readonly flights = new LocalFlights();

  singleFlight<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.flights.run(key, task);
  }
}
