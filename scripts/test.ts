/**
 * `npm test`: every check and every test, in order: types, lint, unit and integration tests (Vitest),
 * then the browser journeys (Playwright in Debian's Chromium). Stops at the first failing step.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

const steps: [string, string, string[]][] = [
  ["Type check", bin("tsc"), ["--noEmit"]],
  ["Lint", bin("eslint"), ["--max-warnings", "0", "."]],
  ["Unit and integration tests", bin("vitest"), ["run"]],
  ["Browser journeys", bin("playwright"), ["test"]],
];

const only = process.argv.slice(2);
for (const [name, command, args] of steps) {
  if (only.length > 0 && !only.some((word) => name.toLowerCase().includes(word.toLowerCase()))) continue;
  console.info(`\n=== ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" } });
  console.info(`=== ${name}: ${result.status === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}
