/**
 * `npm run test:firefox`: the browser journeys in Debian's Firefox ESR, headless, driven by puppeteer-core
 * over WebDriver BiDi (tests/firefox, run by Vitest with vitest.firefox.config.ts, which starts the app as
 * Playwright's webServer does). Closes with `N passed, M failed` and exits non-zero on any failure.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const FIREFOX_REPORT = path.join(root, "artifacts", "firefox.json");

mkdirSync(path.dirname(FIREFOX_REPORT), { recursive: true });
rmSync(FIREFOX_REPORT, { force: true });
const result = spawnSync(
  path.join(root, "node_modules", ".bin", "vitest"),
  ["run", "--config", "vitest.firefox.config.ts", "--reporter=default", "--reporter=json", `--outputFile=${FIREFOX_REPORT}`, ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit" },
);

let failed = result.status === 0 ? 0 : 1;
let passed = 0;
if (existsSync(FIREFOX_REPORT)) {
  const report = JSON.parse(readFileSync(FIREFOX_REPORT, "utf8")) as { numPassedTests: number; numFailedTests: number };
  passed = report.numPassedTests;
  failed = report.numFailedTests + (result.status !== 0 && report.numFailedTests === 0 ? 1 : 0);
}
console.info(`\n${passed} passed, ${failed} failed`);
process.exit(result.status ?? 1);
