import "server-only";

import { getConfig } from "@/lib/config";
import { processWide } from "@/lib/server/process-wide";

import { InMemorySharedState } from "./memory-shared-state";
import { RedisSharedState } from "./redis-shared-state";
import type { SharedStateStore } from "./shared-state-core";

export * from "./shared-state-core";
export { InMemoryBackend, InMemorySharedState } from "./memory-shared-state";

const current = processWide("shared-state", () => ({ store: undefined as SharedStateStore | undefined }));

/**
 * The process-wide store: Redis when REDIS_URL or REDIS_SENTINELS is set (one client per process), else in
 * memory. One for the process (`processWide`): the proxy and the route handlers are bundled apart.
 */
export function getSharedState(): SharedStateStore {
  current.store ??= createSharedState();
  return current.store;
}

function createSharedState(): SharedStateStore {
  const { redisUrl, redisSentinel, redisPrefix } = getConfig();
  if (redisSentinel) return new RedisSharedState({ sentinel: redisSentinel, prefix: redisPrefix });
  return redisUrl ? new RedisSharedState({ url: redisUrl, prefix: redisPrefix }) : new InMemorySharedState();
}

/** Tests only. */
export function setSharedStateForTests(store: SharedStateStore): void {
  current.store = store;
}
