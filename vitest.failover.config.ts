import { defineConfig } from "vitest/config";

import base from "./vitest.config";

/**
 * `npm run test:failover`: a Redis primary, a replica and three Sentinels, three production dashboard
 * processes behind a round-robin proxy (tests/failover). Apart from the default run: it builds the app and
 * starts processes, and its cases follow one failover in order.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["tests/failover/**/*.test.ts"],
    testTimeout: 90_000,
    hookTimeout: 20 * 60_000,
    fileParallelism: false,
    sequence: { shuffle: false },
  },
});
