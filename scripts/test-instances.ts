/**
 * `npm run test:instances`: several dashboard instances behind a load balancer, sharing one real Redis
 * (tests/instances). Prints "N passed, M failed" and exits non-zero on any failure.
 */
import { runVitestSuite } from "./vitest-suite";

runVitestSuite("vitest.instances.config.ts", "instances.json", [], { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: "true" });
