/**
 * `npm run bench`: the dashboard's speed and size figures, as ratios measured in one run (machines are
 * shared and noisy, so nothing here is asserted by a timed test). docs/architecture.md section 9: the sandbox answers
 * with 20 ms of added latency, as a real site tens of milliseconds away would, and the two sides of each
 * ratio are interleaved so machine drift cancels. Each section (scripts/bench/*) is one measurement.
 *
 * The restated goals (README, Speed), all measured through Next.js's router:
 *   - one request at a time, the dashboard's own share of a data request, p50, at most 1 ms (sequential.ts);
 *   - at 10 connections, the data route's throughput at least 0.85 of the direct call's, its p50 at most
 *     1.20 times, and its own CPU beyond /api/health's at most 0.5 ms a request (concurrent.ts);
 *   - memory flat over a five-minute soak (soak.ts).
 * And issue 26's page views (page-views.ts): the HTML of a page with the member's data, the RSC request
 * of a tab click and the signed-out page, as ratios to the direct call; what a student sees on a phone
 * (lighthouse.ts): Lighthouse's LCP, TBT and CLS per signed-in page, first-load JavaScript per route.
 *
 *   npm run bench                       the figures (sections: sequential, concurrent, pageViews, lighthouse)
 *   npm run bench -- --only=pageViews --seconds=10    page views only
 *   npm run bench -- --only=pageViews,lighthouse --page-warm-up=300 --lighthouse-runs=1
 *   npm run bench -- --soak             adds the five-minute soak
 *   npm run bench -- --quick            short phases, for a quick look while developing
 *   npm run bench -- --only=concurrent,soak --seconds=10 --soak-seconds=120 --rounds=30
 *   npm run bench -- --lab=profile,stage-times,javascript,sharedState,siteRequestsPerPageView,nextFloor
 *                                       adds lab sections (scripts/bench/lab/, not loaded otherwise)
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

import { concurrentLoad } from "./bench/concurrent";
import type { BenchContext, BenchOptions, BenchSection } from "./bench/context";
import { findNextServer, Inspector, parentOf } from "./bench/dashboard-process";
import { directAccessToken, signInToDashboard, waitFor, type BenchTarget } from "./bench/members";
import { phoneAudit } from "./bench/lighthouse";
import { pageViews } from "./bench/page-views";
import { phase } from "./bench/progress";
import { sequentialLatency } from "./bench/sequential";
import { soak } from "./bench/soak";

const root = path.resolve(import.meta.dirname, "..");

/** The measured figures, in order. */
const SECTIONS: BenchSection[] = [sequentialLatency, concurrentLoad, pageViews, phoneAudit, soak];

/** The lab sections named by `--lab`, loaded only then. */
async function labSections(names: string | undefined): Promise<BenchSection[]> {
  if (!names) return [];
  const { LAB_SECTIONS } = await import("./bench/lab/index");
  const wanted = new Set(names.split(","));
  const found = LAB_SECTIONS.filter((section) => wanted.has(section.name));
  const unknown = [...wanted].filter((name) => !found.some((section) => section.name === name));
  if (unknown.length > 0)
    throw new Error(`unknown lab sections: ${unknown.join(", ")} (known: ${LAB_SECTIONS.map((s) => s.name).join(", ")})`);
  return found;
}

function readOptions(): { options: BenchOptions; only?: Set<string>; lab?: string } {
  const { values } = parseArgs({
    options: {
      soak: { type: "boolean", default: false },
      lab: { type: "string" },
      quick: { type: "boolean", default: false },
      only: { type: "string" },
      rounds: { type: "string" },
      seconds: { type: "string" },
      connections: { type: "string" },
      "soak-seconds": { type: "string" },
      "page-warm-up": { type: "string" },
      "lighthouse-runs": { type: "string" },
    },
  });
  const number = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
  const quick = values.quick;
  const options: BenchOptions = {
    rounds: number(values.rounds ?? process.env.BENCH_ROUNDS, quick ? 20 : 200),
    connections: number(values.connections, 10),
    concurrentSeconds: number(values.seconds, quick ? 4 : 20),
    soak: values.soak || values["soak-seconds"] !== undefined,
    soakSeconds: number(values["soak-seconds"], quick ? 60 : 300),
    soakConnections: 20,
    soakSessions: quick ? 40 : 76,
    pageWarmUpRequests: number(values["page-warm-up"], quick ? 200 : 1000),
    lighthouseRuns: number(values["lighthouse-runs"], quick ? 1 : 3),
  };
  return { options, only: values.only ? new Set(values.only.split(",")) : undefined, lab: values.lab };
}

async function main(): Promise<void> {
  const { options, only, lab } = readOptions();
  const sections = [
    ...SECTIONS.filter((section) => section.enabled(options) && (!only || only.has(section.name))),
    ...(await labSections(lab)),
  ];
  const appPort = process.env.BENCH_APP_PORT ?? "3200";
  const sitePort = process.env.BENCH_SITE_PORT ?? "4200";
  // Where the dashboard's inspector opens when the soak or --profile needs it (SIGUSR1, see dashboard-process.ts).
  const inspectorHostPort = `127.0.0.1:${process.env.BENCH_INSPECTOR_PORT ?? "9230"}`;
  const target: BenchTarget = {
    appUrl: `http://localhost:${appPort}`,
    appUrlIPv4: `http://127.0.0.1:${appPort}`,
    siteUrl: `http://127.0.0.1:${sitePort}`,
  };

  // A server left on a port (another bench, an app started by hand) would be measured instead, or break the start.
  for (const url of [target.appUrl, target.siteUrl])
    if (await answers(url)) throw new Error(`${url} already answers: stop what runs there, or set BENCH_APP_PORT and BENCH_SITE_PORT`);
  phase(`starting the dashboard and the sandbox (20 ms latency) on ports ${appPort} and ${sitePort}; a stale build is rebuilt first`);
  const server = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "start.ts")], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      SITE_URL: "",
      PORT: appPort,
      APP_URL: target.appUrl,
      SANDBOX_PORT: sitePort,
      SANDBOX_CONTROL: "1",
      SANDBOX_LATENCY_MS: "20",
      LOG_LEVEL: "warn",
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--inspect-port=${inspectorHostPort}`].filter(Boolean).join(" "),
    },
    detached: true,
  });
  // Ctrl-C or a kill stops the servers too.
  const stopServers = () => {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
    process.exit(130);
  };
  process.once("SIGINT", stopServers);
  process.once("SIGTERM", stopServers);
  let inspector: Promise<Inspector> | undefined;
  const exited = new Promise<never>((_resolve, reject) =>
    server.once("exit", (code) => reject(new Error(`the dashboard stopped (exit code ${code})`))),
  );
  try {
    await Promise.race([waitFor(`${target.appUrl}/api/health`, 600_000), exited]);
    const serverPid = findNextServer(server.pid!);
    if (serverPid === undefined) throw new Error("could not find the dashboard's server process");
    phase("signing in a member, through the dashboard and directly at the site");
    const context: BenchContext = {
      target,
      options,
      serverPid,
      // scripts/start.ts runs the sandbox in its own process and starts Next.js as its child.
      sitePid: parentOf(serverPid)!,
      member: await signInToDashboard(target, "maya@example.com"),
      directToken: await directAccessToken(target, "maya@example.com"),
      inspector: () => (inspector ??= Inspector.attach(serverPid, inspectorHostPort)),
      writeArtifact: (name, content) => {
        mkdirSync(path.join(root, "artifacts"), { recursive: true });
        writeFileSync(path.join(root, "artifacts", name), content);
        return path.join("artifacts", name);
      },
    };

    const results: Record<string, unknown> = { siteLatencyMs: 20, options };
    const summary: string[] = [];
    for (const [index, section] of sections.entries()) {
      phase(`section ${index + 1} of ${sections.length}: ${section.title}`);
      const outcome = await section.run(context);
      results[section.name] = outcome.results;
      summary.push(...outcome.summary);
      for (const line of outcome.summary) console.info(line);
      // After every section, so that a later section's failure keeps the figures already measured.
      context.writeArtifact("bench.json", `${JSON.stringify(results, null, 2)}\n`);
    }
    phase("done");
    console.info(`\n${summary.join("\n")}`);
  } finally {
    (await inspector?.catch(() => undefined))?.close();
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
}

/** Whether anything answers HTTP at `url`. */
function answers(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    async (response) => (await response.arrayBuffer(), true),
    () => false,
  );
}

/** An error's message, then each cause's, as far as they go. */
function messages(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause === undefined ? error.message : `${error.message}\n  because: ${messages(error.cause)}`;
}

void main().catch((error: unknown) => {
  console.error(messages(error));
  process.exit(1);
});
