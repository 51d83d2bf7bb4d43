import { defineConfig, devices } from "@playwright/test";

import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./tests/support/chromium";

/**
 * Browser journeys in Debian's Chromium (no browser download works here) against the real app and the
 * sandbox, both started by the README's run command on test ports.
 */
// E2E_APP_PORT and E2E_SITE_PORT let two checkouts run their journeys side by side on one machine.
const appPort = process.env.E2E_APP_PORT ?? "3100";
const sitePort = process.env.E2E_SITE_PORT ?? "4100";
export const E2E_APP_URL = `http://localhost:${appPort}`;
export const E2E_SITE_URL = `http://127.0.0.1:${sitePort}`;

const desktop = { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 900 } };
const SITE_BAD_DAYS = /site-bad-days\.spec\.ts$/;

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "artifacts/playwright.json" }]],
  use: {
    baseURL: E2E_APP_URL,
    trace: "retain-on-failure",
    // The demo site's members live in Taipei; the dashboard shows times in the browser's zone.
    timezoneId: "Asia/Taipei",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: "desktop", use: desktop, testIgnore: SITE_BAD_DAYS },
    // The dashboard remembers what a site taught it (a cap on `first`, fields it lacks) for the life of its
    // process, so the site's bad days run once every other journey has finished, whatever the files are named.
    { name: "site-bad-days", use: desktop, testMatch: SITE_BAD_DAYS, dependencies: ["desktop"] },
  ],
  webServer: {
    // As `npm start` runs it: Node itself with tsx's loader, so the stop signal reaches the launcher
    // (tests/integration/run-commands.test.ts).
    command: `"${process.execPath}" --import tsx scripts/start.ts`,
    url: `${E2E_APP_URL}/api/health`,
    timeout: 300_000,
    reuseExistingServer: !process.env.CI,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: appPort,
      APP_URL: E2E_APP_URL,
      SANDBOX_PORT: sitePort,
      SANDBOX_CONTROL: "1",
      SITE_URL: "",
      // Journeys turn the sandbox's MCP beta on and off between pages: the dashboard asks anew on every view.
      MCP_PROBE_TTL_SECONDS: "0",
      // The sandbox under its other loopback name stands for the site's image CDN (its knob coverOrigin).
      SITE_IMAGE_ORIGINS: E2E_SITE_URL.replace("127.0.0.1", "localhost"),
    },
  },
});
