/**
 * `npm run test:firefox`: the browser journeys in Debian's Firefox ESR, headless, driven by puppeteer-core
 * over WebDriver BiDi (tests/firefox, run by Vitest with vitest.firefox.config.ts, which starts the app as
 * Playwright's webServer does). Closes with `N passed, M failed` and exits non-zero on any failure.
 */
import { runVitestSuite } from "./vitest-suite";

runVitestSuite("vitest.firefox.config.ts", "firefox.json", process.argv.slice(2));
