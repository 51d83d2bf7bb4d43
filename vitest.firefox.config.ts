import { defineConfig } from "vitest/config";

/** The browser journeys in Firefox ESR (puppeteer-core over WebDriver BiDi): `npm run test:firefox`. */
export default defineConfig({
  test: {
    include: ["tests/firefox/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/firefox/global-setup.ts"],
    // One browser at a time against one sandbox, whose state each test resets.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
