/**
 * `npm run test:instances`: several dashboard instances behind a load balancer, sharing one real Redis
 * (tests/instances). Prints "N passed, M failed" and exits non-zero on any failure.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const INSTANCES_REPORT = path.join(root, "artifacts", "instances.json");

mkdirSync(path.dirname(INSTANCES_REPORT), { recursive: true });
rmSync(INSTANCES_REPORT, { force: true });
const result = spawnSync(
  path.join(root, "node_modules", ".bin", "vitest"),
  ["run", "--config", "vitest.instances.config.ts", "--reporter=default", "--reporter=json", `--outputFile=${INSTANCES_REPORT}`],
  { cwd: root, stdio: "inherit", env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: "true" } },
);
if (existsSync(INSTANCES_REPORT)) {
  const report = JSON.parse(readFileSync(INSTANCES_REPORT, "utf8")) as { numTotalTests: number; numPassedTests: number };
  // No test here is ever skipped on purpose: one that did not pass (its set-up failed) counts as failed.
  console.info(`\n${report.numPassedTests} passed, ${report.numTotalTests - report.numPassedTests} failed`);
}
process.exit(result.status ?? 1);
