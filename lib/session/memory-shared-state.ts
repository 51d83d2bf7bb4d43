import "server-only";

import { randomUUID } from "node:crypto";

import { logEvent } from "@/lib/log/logger";

import { SharedStateUnavailableError } from "./errors";

import {
  pollDelayMs,
  SharedStateBase,
  sleep,
  type Durability,
  type Lease,
  type LockOptions,
  type LockOutcome,
  type PublishOutcome,
  type SharedStateStore,
} from "./shared-state-core";

interface Entry {
  value: string;
  expiresAt: number;
}

/**
 * What in-memory stores share: one per process, or one per test standing for a shared backend. Each kind
 * of key (the part before the first ":", e.g. "rotated", "session-ended", "callback-state", "handoff")
 * holds at most `maxEntriesPerKind` live entries, each with its TTL, so memory stays flat under load;
 * past that, the oldest entry of that kind goes first (in O(1): a Map keeps insertion order).
 */
export class InMemoryBackend {
  private readonly kinds = new Map<string, Map<string, Entry>>();
  readonly locks = new Map<string, Entry>();
  private lastSweepAt = 0;
  /** When the capacity warning of each kind was last logged: once per CAPACITY_WARNING_INTERVAL_MS at most. */
  private readonly capacityWarnedAt = new Map<string, number>();

  constructor(
    readonly now: () => number = () => Date.now(),
    readonly maxEntriesPerKind = 20_000,
  ) {}

  read(key: string): string | undefined {
    const entries = this.kinds.get(kindOf(key));
    const entry = entries?.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      entries!.delete(key);
      return undefined;
    }
    return entry.value;
  }

  write(key: string, value: string, ttlMs: number): void {
    this.sweepOccasionally();
    const kind = kindOf(key);
    let entries = this.kinds.get(kind);
    if (!entries) this.kinds.set(kind, (entries = new Map<string, Entry>()));
    if (!entries.has(key) && entries.size >= this.maxEntriesPerKind) {
      this.warnAtCapacity(kind);
      // An "ended" marker is what keeps a signed-out cookie dead: never evicted for room. The write fails
      // instead (fail closed: the caller clears the cookie and says the end was not recorded everywhere).
      if (NEVER_EVICTED_KINDS.has(kind)) throw new SharedStateUnavailableError(`The shared state is full (${kind}).`);
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    // Deleted first, so a rewritten key moves to the young end.
    entries.delete(key);
    entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  /** The TTL left of `key`, in milliseconds (0 when absent). */
  remainingMs(key: string): number {
    const entry = this.kinds.get(kindOf(key))?.get(key);
    return entry ? Math.max(0, entry.expiresAt - this.now()) : 0;
  }

  private warnAtCapacity(kind: string): void {
    const now = this.now();
    const last = this.capacityWarnedAt.get(kind);
    if (last !== undefined && now - last < CAPACITY_WARNING_INTERVAL_MS) return;
    this.capacityWarnedAt.set(kind, now);
    logEvent("shared_state_error", { reason: "capacity", kind, maxEntries: this.maxEntriesPerKind }, "warn");
  }

  /** Tests only: the live keys of one kind. */
  keysOf(kind: string): string[] {
    return [...(this.kinds.get(kind)?.keys() ?? [])];
  }

  size(kind: string): number {
    return this.kinds.get(kind)?.size ?? 0;
  }

  /** Drops expired entries and locks at most once a second. */
  private sweepOccasionally(): void {
    const now = this.now();
    if (now - this.lastSweepAt < 1_000) return;
    this.lastSweepAt = now;
    for (const entries of this.kinds.values()) for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
    for (const [key, lock] of this.locks) if (lock.expiresAt <= now) this.locks.delete(key);
  }
}

/** Kinds whose entries are never dropped to make room (see InMemoryBackend.write). */
const NEVER_EVICTED_KINDS = new Set(["session-ended"]);
/** The capacity warning is logged at most once per this interval and kind, not on every write. */
export const CAPACITY_WARNING_INTERVAL_MS = 60_000;

function kindOf(key: string): string {
  const colon = key.indexOf(":");
  return colon === -1 ? key : key.slice(0, colon);
}

/** The store of the one-process demo (and of tests). */
export class InMemorySharedState extends SharedStateBase implements SharedStateStore {
  constructor(private readonly backend: InMemoryBackend = new InMemoryBackend()) {
    super();
  }

  async withLock<T>(key: string, options: LockOptions, task: (lease: Lease) => Promise<T>): Promise<LockOutcome<T>> {
    const { now, locks } = this.backend;
    const isHeld = () => (locks.get(key)?.expiresAt ?? 0) > now();
    if (isHeld()) {
      const deadline = now() + options.waitMs;
      for (let attempt = 0; isHeld() && now() < deadline; attempt += 1) {
        await sleep(pollDelayMs(attempt));
        if (await options.stopWaiting?.()) break;
      }
      return { acquired: false };
    }
    const requestedAt = now();
    const owner = randomUUID();
    // Checked and set in one synchronous step: no other caller runs in between.
    locks.set(key, { value: owner, expiresAt: requestedAt + options.leaseMs });
    try {
      return { acquired: true, value: await task({ remainingMs: () => requestedAt + options.leaseMs - now() }) };
    } finally {
      if (locks.get(key)?.value === owner) locks.delete(key);
    }
  }

  remember(key: string, value: string, ttlMs: number): Promise<void> {
    return settled(() => this.backend.write(key, value, ttlMs));
  }

  recall(key: string): Promise<string | undefined> {
    return Promise.resolve(this.backend.read(key));
  }

  claim(key: string, ttlMs: number): Promise<boolean> {
    // One synchronous check-and-set: two concurrent claims cannot both see the key absent.
    if (this.backend.read(key) !== undefined) return Promise.resolve(false);
    return settled(() => {
      this.backend.write(key, "1", ttlMs);
      return true;
    });
  }

  countInWindow(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    // Read and written in one synchronous step: no other caller runs in between.
    return settled(() => {
      const current = this.backend.read(key);
      const count = (current === undefined ? 0 : Number(current)) + 1;
      const resetMs = current === undefined ? windowMs : this.backend.remainingMs(key);
      this.backend.write(key, String(count), resetMs);
      return { count, resetMs };
    });
  }

  setField(key: string, field: string, value: string, ttlMs: number): Promise<number> {
    return settled(() => {
      const fields = parseFields(this.backend.read(key));
      fields[field] = value;
      this.backend.write(key, JSON.stringify(fields), Math.max(ttlMs, this.backend.remainingMs(key)));
      return Object.keys(fields).length;
    });
  }

  readFields(key: string): Promise<Record<string, string>> {
    return Promise.resolve(parseFields(this.backend.read(key)));
  }

  deleteField(key: string, field: string): Promise<void> {
    const fields = parseFields(this.backend.read(key));
    if (!(field in fields)) return Promise.resolve();
    delete fields[field];
    return settled(() => this.backend.write(key, JSON.stringify(fields), this.backend.remainingMs(key)));
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** One process (or one test's backend) has no replica to wait for. */
  rememberDurably(key: string, value: string, ttlMs: number): Promise<Durability> {
    this.backend.write(key, value, ttlMs);
    return Promise.resolve("not_waited");
  }

  publishOnce(key: string, value: string, ttlMs: number): Promise<PublishOutcome> {
    // One synchronous check-and-set, as Redis's SET NX: the first writer's value stays.
    const earlier = this.backend.read(key);
    if (earlier !== undefined) return Promise.resolve({ stored: false, value: earlier });
    this.backend.write(key, value, ttlMs);
    return Promise.resolve({ stored: true, value, durability: "not_waited" });
  }
}

function parseFields(value: string | undefined): Record<string, string> {
  return value === undefined ? {} : (JSON.parse(value) as Record<string, string>);
}

/** A synchronous step as a promise: a store that is full rejects, as Redis would, instead of throwing. */
function settled<T>(step: () => T): Promise<T> {
  try {
    return Promise.resolve(step());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
