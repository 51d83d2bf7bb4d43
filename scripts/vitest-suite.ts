/**
 * Runs one Vitest suite of the browser or several-instance tests with its own config, writes its JSON
 * report under artifacts/, prints the closing line `N passed, M failed` CI reads, and exits with the
 * runner's status. A test that did not pass (its set-up failed) counts as failed: none is skipped on purpose.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

export function runVitestSuite(config: string, reportName: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = process.env): never {
  const report = path.join(root, "artifacts", reportName);
  mkdirSync(path.dirname(report), { recursive: true });
  rmSync(report, { force: true });
  const result = spawnSync(
    path.join(root, "node_modules", ".bin", "vitest"),
    ["run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile=${report}`, ...extraArgs],
    { cwd: root, stdio: "inherit", env },
  );
  let passed = 0;
  let failed = result.status === 0 ? 0 : 1;
  if (existsSync(report)) {
    const counts = JSON.parse(readFileSync(report, "utf8")) as { numTotalTests: number; numPassedTests: number };
    passed = counts.numPassedTests;
    failed = Math.max(counts.numTotalTests - counts.numPassedTests, result.status === 0 ? 0 : 1);
  }
  console.info(`\n${passed} passed, ${failed} failed`);
  process.exit(result.status ?? 1);
}
