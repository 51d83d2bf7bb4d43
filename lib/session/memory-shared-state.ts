import "server-only";

import { randomUUID } from "node:crypto";

import { logEvent } from "@/lib/log/logger";

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
    // Deleted first, so a rewritten key moves to the young end.
    if (!entries.delete(key) && entries.size >= this.maxEntriesPerKind) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
      logEvent("shared_state_error", { reason: "capacity", kind, maxEntries: this.maxEntriesPerKind }, "warn");
    }
    entries.set(key, { value, expiresAt: this.now() + ttlMs });
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
    this.backend.write(key, value, ttlMs);
    return Promise.resolve();
  }

  recall(key: string): Promise<string | undefined> {
    return Promise.resolve(this.backend.read(key));
  }

  claim(key: string, ttlMs: number): Promise<boolean> {
    // One synchronous check-and-set: two concurrent claims cannot both see the key absent.
    if (this.backend.read(key) !== undefined) return Promise.resolve(false);
    this.backend.write(key, "1", ttlMs);
    return Promise.resolve(true);
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
