import { defineConfig } from "vitest/config";

import base from "./vitest.config";

/**
 * `npm run test:instances`: three production dashboard processes, a real redis-server and a round-robin
 * proxy (tests/instances). Apart from the default run: it builds the app and starts processes.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["tests/instances/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 20 * 60_000,
    fileParallelism: false,
  },
});
