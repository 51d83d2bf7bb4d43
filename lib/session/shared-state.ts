import "server-only";

/**
 * The state that several dashboard instances must share (DESIGN.md section 8): refresh single-flight,
 * the short memory of "this refresh token was just rotated into that one", sessions ended by logout or
 * revocation, and consumed login states. Every instance is otherwise stateless. Today's implementation
 * is in memory; a Redis-backed one (REDIS_URL) implements the same interface.
 */
export interface SharedStateStore {
  /** Runs `task` once per key at a time: concurrent callers with the same key share one result. */
  singleFlight<T>(key: string, task: () => Promise<T>): Promise<T>;
  /** Remembers a value for `ttlMs`. */
  remember(key: string, value: string, ttlMs: number): Promise<void>;
  recall(key: string): Promise<string | undefined>;
  /** Stores `key` only if absent; true when this call stored it (first use), false when it was there already. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Resolves when the store answers (readiness, /api/ready); rejects when it does not. */
  ping(): Promise<void>;
  /** Releases connections and timers (clean shutdown); the store is not used afterwards. */
  close(): Promise<void>;
}

interface Entry {
  value: string;
  expiresAt: number;
}

export class InMemorySharedState implements SharedStateStore {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly entries = new Map<string, Entry>();
  private writesSinceSweep = 0;

  constructor(private readonly now: () => number = () => Date.now()) {}

  singleFlight<T>(key: string, task: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const started = task().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }

  remember(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    this.sweepOccasionally();
    return Promise.resolve();
  }

  recall(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return Promise.resolve(undefined);
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(entry.value);
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    if ((await this.recall(key)) !== undefined) return false;
    await this.remember(key, "1", ttlMs);
    return true;
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.entries.clear();
    this.inFlight.clear();
    return Promise.resolve();
  }

  private sweepOccasionally(): void {
    this.writesSinceSweep += 1;
    if (this.writesSinceSweep < 500) return;
    this.writesSinceSweep = 0;
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

const globalKey = Symbol.for("companion-dashboard.shared-state");
type GlobalWithStore = typeof globalThis & { [globalKey]?: SharedStateStore };

/**
 * The process-wide store. Kept on globalThis because Next.js bundles the proxy and the route handlers
 * separately: a module-level singleton would not be shared between them.
 */
export function getSharedState(): SharedStateStore {
  const scope = globalThis as GlobalWithStore;
  scope[globalKey] ??= new InMemorySharedState();
  return scope[globalKey];
}

/** Tests only. */
export function setSharedStateForTests(store: SharedStateStore): void {
  (globalThis as GlobalWithStore)[globalKey] = store;
}
