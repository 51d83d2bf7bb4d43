/**
 * `npm run test:failover`: the shared state's Redis fails over under three dashboard instances (tests/failover):
 * a primary, a replica and three Sentinels, all real. Prints "N passed, M failed" and exits non-zero on any failure.
 */
import { runVitestSuite } from "./vitest-suite";

runVitestSuite("vitest.failover.config.ts", "failover.json", [], { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: "true" });
