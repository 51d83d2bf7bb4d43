/**
 * `npm test`: every check and every test: types, formatting (Prettier) and lint side by side (they only read the
 * sources; each prints its output once it has finished, in this order), then in order unit and integration tests
 * (Vitest), the browser journeys in Debian's Chromium (Playwright), then side by side the browser journeys in
 * Debian's Firefox ESR (puppeteer-core) and several instances sharing one Redis (`npm run test:instances`), then
 * that Redis failing over under them (`npm run test:failover`). Stops at the first failing step (or pair of
 * side-by-side steps).
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

/** A step: its name, command and arguments. */
type Step = [string, string, string[]];

/**
 * The steps in order, in stages. A stage of several lanes runs them side by side, each lane's steps one after the
 * other, with their output held back and printed once every lane has finished. The source checks only read the
 * sources (on two cores, about a minute sooner side by side). Firefox's journeys (against an app of their own on
 * the E2E ports) run beside the several-instance suite (on free ports), which mostly waits on Redis, on the site's
 * latency and on timers: about a minute and a half sooner than one after the other, and both pass as they do alone.
 */
const stages: Step[][][] = [
  [
    [["Type check", bin("tsc"), ["--noEmit"]]],
    [["Format", bin("prettier"), ["--check", "."]]],
    [["Lint", bin("eslint"), ["--max-warnings", "0", "."]]],
  ],
  [[["Unit and integration tests", bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile=${vitestReport}`]]]],
  [[["Browser journeys", bin("playwright"), ["test"]]]],
  [
    [["Browser journeys in Firefox", bin("tsx"), ["scripts/test-firefox.ts"]]],
    [["Several instances", bin("tsx"), ["scripts/test-instances.ts"]]],
  ],
  // Alone: its bound of 2 s from the promotion to the first 200 is missed with Firefox's journeys beside it.
  [[["Redis failover", bin("tsx"), ["scripts/test-failover.ts"]]]],
];
/** The first stage, the source checks, starts none of Debian's programs; every later one does (scripts/test-prerequisites.ts). */
const SOURCE_CHECKS = 0;

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

/** Runs a command with its output held back, and resolves with that output, its exit status and its seconds. */
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

function failWith(status: number | null): never {
  const line = summary(true);
  if (line) console.info(`\n${line}`);
  process.exit(status ?? 1);
}

// Every step's children: no browser download (Debian's browsers are used).
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = "1";
const only = process.argv.slice(2);
const chosen = (name: string) => only.length === 0 || only.some((word) => name.toLowerCase().includes(word.toLowerCase()));
const selectedStages = stages
  .map((lanes, stage) => ({ stage, lanes: lanes.map((lane) => lane.filter(([name]) => chosen(name))).filter((lane) => lane.length > 0) }))
  .filter(({ lanes }) => lanes.length > 0);
if (selectedStages.some(({ stage }) => stage !== SOURCE_CHECKS)) {
  const problem = ensurePrerequisites();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
for (const { lanes } of selectedStages) {
  const [single] = lanes;
  if (lanes.length === 1 && single) {
    for (const [name, command, args] of single) {
      console.info(`\n=== ${name}`);
      const started = Date.now();
      const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
      console.info(`=== ${name}: ${result.status === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s`);
      if (result.status !== 0) failWith(result.status);
    }
    continue;
  }
  const ranLanes = await Promise.all(
    lanes.map(async (lane) => {
      const ran: [string, Awaited<ReturnType<typeof runHeldBack>>][] = [];
      for (const [name, command, args] of lane) {
        const result = await runHeldBack(command, args);
        ran.push([name, result]);
        if (result.status !== 0) break;
      }
      return ran;
    }),
  );
  for (const [index, ran] of ranLanes.entries()) {
    const beside = lanes
      .filter((_, other) => other !== index)
      .flat()
      .map(([name]) => name)
      .join(", ");
    for (const [name, { output, status, seconds }] of ran) {
      console.info(`\n=== ${name}`);
      process.stdout.write(output);
      console.info(`=== ${name}: ${status === 0 ? "passed" : "FAILED"} in ${seconds} s (side by side with: ${beside})`);
    }
  }
  const failed = ranLanes.flat().find(([, { status }]) => status !== 0);
  if (failed) failWith(failed[1].status);
}
const line = summary(false);
if (line) console.info(`\n${line}`);
