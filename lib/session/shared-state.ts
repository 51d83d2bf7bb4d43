import "server-only";

import { getConfig } from "@/lib/config";

import { InMemorySharedState } from "./memory-shared-state";
import { RedisSharedState } from "./redis-shared-state";
import type { SharedStateStore } from "./shared-state-core";

export * from "./shared-state-core";
export { InMemoryBackend, InMemorySharedState } from "./memory-shared-state";

const globalKey = Symbol.for("companion-dashboard.shared-state");
type GlobalWithStore = typeof globalThis & { [globalKey]?: SharedStateStore };

/**
 * The process-wide store: Redis when REDIS_URL or REDIS_SENTINELS is set (one client per process), else in memory. Kept on
 * globalThis because Next.js bundles the proxy and the route handlers separately: a module-level
 * singleton would not be shared between them.
 */
export function getSharedState(): SharedStateStore {
  const scope = globalThis as GlobalWithStore;
  scope[globalKey] ??= createSharedState();
  return scope[globalKey];
}

function createSharedState(): SharedStateStore {
  const { redisUrl, redisSentinel, redisPrefix } = getConfig();
  if (redisSentinel) return new RedisSharedState({ sentinel: redisSentinel, prefix: redisPrefix });
  return redisUrl ? new RedisSharedState({ url: redisUrl, prefix: redisPrefix }) : new InMemorySharedState();
}

/** Tests only. */
export function setSharedStateForTests(store: SharedStateStore): void {
  (globalThis as GlobalWithStore)[globalKey] = store;
}
