/**
 * `npm test`: every check and every test: types, formatting (Prettier) and lint side by side (they only read the
 * sources; each prints its output once it has finished, in this order), then in order unit and integration tests
 * (Vitest), the browser journeys (Playwright in Debian's Chromium, then puppeteer-core in Debian's Firefox ESR),
 * several instances sharing one Redis (`npm run test:instances`), and that Redis failing over under them
 * (`npm run test:failover`). Stops at the first failing step.
 * Before any of them, the programs the suites start (Debian's browsers, Redis, Prometheus...) are checked and, as
 * root on Debian, installed (scripts/test-prerequisites.ts); elsewhere it stops at once, naming what is missing.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

import { ensurePrerequisites } from "./test-prerequisites";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

const vitestReport = path.join(root, "artifacts", "vitest.json");
const playwrightReport = path.join(root, "artifacts", "playwright.json");
const firefoxReport = path.join(root, "artifacts", "firefox.json");
// Written by scripts/test-instances.ts.
const instancesReport = path.join(root, "artifacts", "instances.json");
// Written by scripts/test-failover.ts.
const failoverReport = path.join(root, "artifacts", "failover.json");

/** The checks that only read the sources: they run side by side (on two cores, about a minute sooner). */
const sourceChecks: [string, string, string[]][] = [
  ["Type check", bin("tsc"), ["--noEmit"]],
  ["Format", bin("prettier"), ["--check", "."]],
  ["Lint", bin("eslint"), ["--max-warnings", "0", "."]],
];

/** Name, command, arguments, and whether the step starts Debian's programs (scripts/test-prerequisites.ts). */
const steps: [string, string, string[], boolean][] = [
  ["Unit and integration tests", bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile=${vitestReport}`], true],
  ["Browser journeys", bin("playwright"), ["test"], true],
  ["Browser journeys in Firefox", bin("tsx"), ["scripts/test-firefox.ts"], true],
  ["Several instances", bin("tsx"), ["scripts/test-instances.ts"], true],
  ["Redis failover", bin("tsx"), ["scripts/test-failover.ts"], true],
];

/**
 * The closing line CI reads: every test counted by every runner. A Vitest test that did not pass (its
 * set-up failed) counts as failed, and so does a step that failed without failing any test (it crashed).
 */
function summary(failedStep: boolean): string | null {
  let passed = 0;
  let failed = 0;
  for (const vitestFormat of [vitestReport, firefoxReport, instancesReport, failoverReport].filter((file) => existsSync(file))) {
    const report = JSON.parse(readFileSync(vitestFormat, "utf8")) as { numTotalTests: number; numPassedTests: number };
    passed += report.numPassedTests;
    failed += report.numTotalTests - report.numPassedTests;
  }
  if (existsSync(playwrightReport)) {
    const report = JSON.parse(readFileSync(playwrightReport, "utf8")) as { stats: { expected: number; unexpected: number; flaky: number } };
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
  }
  if (failedStep && failed === 0) failed = 1;
  return passed + failed > 0 ? `${passed} passed, ${failed} failed` : null;
}

mkdirSync(path.join(root, "artifacts"), { recursive: true });
for (const report of [vitestReport, playwrightReport, firefoxReport, instancesReport, failoverReport]) rmSync(report, { force: true });

/** Runs a source check with its output held back, and resolves with that output, its exit status and its seconds. */
function runHeldBack(command: string, args: string[]): Promise<{ output: string; status: number | null; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    const output: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("error", (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on("close", (status) =>
      resolve({ output: Buffer.concat(output).toString("utf8"), status, seconds: Math.round((Date.now() - started) / 1000) }),
    );
  });
}

const only = process.argv.slice(2);
const chosen = (name: string) => only.length === 0 || only.some((word) => name.toLowerCase().includes(word.toLowerCase()));
const selectedChecks = sourceChecks.filter(([name]) => chosen(name));
const selected = steps.filter(([name]) => chosen(name));
if (selected.some(([, , , startsPrograms]) => startsPrograms)) {
  const problem = ensurePrerequisites();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
if (selectedChecks.length > 0) {
  const results = await Promise.all(selectedChecks.map(([, command, args]) => runHeldBack(command, args)));
  for (const [index, [name]] of selectedChecks.entries()) {
    const { output, status, seconds } = results[index]!;
    console.info(`\n=== ${name}`);
    process.stdout.write(output);
    console.info(`=== ${name}: ${status === 0 ? "passed" : "FAILED"} in ${seconds} s (side by side with the other source checks)`);
  }
  const failed = results.find(({ status }) => status !== 0);
  if (failed) {
    const line = summary(true);
    if (line) console.info(`\n${line}`);
    process.exit(failed.status ?? 1);
  }
}
for (const [name, command, args] of selected) {
  console.info(`\n=== ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" } });
  console.info(`=== ${name}: ${result.status === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s`);
  if (result.status !== 0) {
    const line = summary(true);
    if (line) console.info(`\n${line}`);
    process.exit(result.status ?? 1);
  }
}
const line = summary(false);
if (line) console.info(`\n${line}`);
