/**
 * The one command that runs the app (README). With no SITE_URL it starts the sandbox site and the
 * dashboard wired to each other; with SITE_URL (and the other variables of docs/architecture.md section 3) it
 * serves the dashboard alone against that site. Either way it serves the deployable bundle
 * (.next/standalone/server.js), building it first when the sources changed since the last build.
 * `--dev` runs Next.js in development mode instead. In a terminal the lines read as human lines (pino-pretty) with
 * Next.js's own output as Next.js prints it; through a pipe they are JSON lines; LOG_FORMAT overrides
 * (lib/log/log-format.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { lookup } from "node:dns/promises";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { stripVTControlCharacters } from "node:util";

import type { Logger } from "pino";

import { ConfigError, isLoopbackHost, parseEnv, parseLogLevel } from "../lib/config/env-schema";
import { createLogger } from "../lib/log/create-logger";
import { isJsonLogLine, prettyLineFormatter, resolveLogFormat } from "../lib/log/log-format";
import { MANUAL_SIGNAL_HANDLING } from "../lib/server/signal-handling";
import { loadSandboxConfig } from "../sandbox/config";
import { SITE_TIME_ZONE as SANDBOX_TIME_ZONE } from "../sandbox/data/account";
import { SEEDED_DASHBOARD_CLIENT, DEMO_MEMBERS } from "../sandbox/seed";
import { startSandbox } from "../sandbox/server";

import { buildIsCurrent, METHOD_GUARD, prepareStandalone, projectRoot, standaloneServer } from "./standalone";

const development = process.argv.includes("--dev");
/** The dashboard finishes its requests within 10 s of SIGTERM; past this, the launcher stops waiting for it. */
const CHILD_EXIT_TIMEOUT_MS = 15_000;

const stdoutIsTerminal = process.stdout.isTTY === true;
/** Human lines (a terminal, or LOG_FORMAT=pretty), else undefined: JSON lines. */
const pretty =
  resolveLogFormat(process.env, stdoutIsTerminal) === "pretty" ? prettyLineFormatter({ colorize: stdoutIsTerminal }) : undefined;

/**
 * Every line the dashboard's process prints. As JSON lines: pino lines pass through unchanged, Next.js's own
 * plain lines (its build output, start-up banner, an error it prints itself) are wrapped in a `next_output`
 * line. As human lines: pino lines are made readable, Next.js's lines are printed as Next.js printed them.
 */
function forwardLines(source: Readable, logger: Logger, level: "info" | "warn"): void {
  const lines = createInterface({ input: source, crlfDelay: Infinity });
  const plainOutput = level === "warn" ? process.stderr : process.stdout;
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    if (isJsonLogLine(line)) process.stdout.write(pretty ? pretty(line) : `${line}\n`);
    else if (pretty) plainOutput.write(`${line}\n`);
    else logger[level]({ event: "next_output" }, stripVTControlCharacters(line).trim());
  });
}

async function main(): Promise<void> {
  const logger = createLogger({
    level: parseLogLevel(process.env),
    service: "launcher",
    destination: pretty ? { write: (line: string) => void process.stdout.write(pretty(line)) } : undefined,
  });
  const env: Record<string, string | undefined> = { ...process.env };
  let stopSandbox: (() => Promise<void>) | undefined;
  /** The build, then the dashboard: whichever runs when a stop signal comes. */
  let child: ChildProcess | undefined;

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: "stopping", signal });
    if (!child) {
      void (stopSandbox?.() ?? Promise.resolve()).then(() => process.exit(0));
      return;
    }
    // The dashboard stops accepting connections, finishes its requests in flight and exits 0.
    child.kill("SIGTERM");
    setTimeout(() => child?.kill("SIGKILL"), CHILD_EXIT_TIMEOUT_MS).unref();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  if (!env.SITE_URL) {
    const appUrl = env.APP_URL || `http://localhost:${env.PORT || "3000"}`;
    const sandboxConfig = loadSandboxConfig(process.env);
    const sandbox = await startSandbox({
      ...sandboxConfig.options,
      port: sandboxConfig.port,
      host: sandboxConfig.host,
      dashboardRedirectUris: [`${appUrl}/api/auth/callback`],
    });
    stopSandbox = () => sandbox.close();
    env.SITE_URL = sandbox.url;
    // A sandbox that writes its issuer with a "/" (SANDBOX_ISSUER_TRAILING_SLASH): the dashboard is told, as an operator would.
    if (sandbox.state.knobs.issuerTrailingSlash) env.SITE_ISSUER ||= `${sandbox.url}/`;
    env.OAUTH_CLIENT_ID ||= SEEDED_DASHBOARD_CLIENT.clientId;
    env.OAUTH_CLIENT_SECRET ||= SEEDED_DASHBOARD_CLIENT.clientSecret;
    env.APP_URL = appUrl;
    // The zone of the sandbox's wall-clock times, for its knob dateTimesWithoutOffset.
    env.SITE_TIME_ZONE ||= SANDBOX_TIME_ZONE;
    // Generated for the local demo only: production deployments must set SESSION_SECRET.
    env.SESSION_SECRET ||= randomBytes(32).toString("base64url");
    logger.info({ event: "sandbox_started", url: sandbox.url });
  }

  let config;
  try {
    config = parseEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      await stopSandbox?.();
      process.exit(1);
    }
    throw error;
  }

  const nextBin = projectRoot("node_modules", "next", "dist", "bin", "next");
  const childEnv = { ...env, NEXT_TELEMETRY_DISABLED: "1" };
  if (!development && !buildIsCurrent()) {
    logger.info({ event: "build_started" }, "Building the dashboard (once per change)...");
    const build = spawn(process.execPath, [nextBin, "build"], {
      cwd: projectRoot(),
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...childEnv, NODE_ENV: "production" },
    });
    child = build;
    forwardLines(build.stdout, logger, "info");
    forwardLines(build.stderr, logger, "warn");
    const status = await new Promise<number | null>((resolve) => build.on("exit", resolve));
    if (status !== 0 || stopping) {
      if (!stopping) logger.error({ event: "build_failed", status });
      await stopSandbox?.();
      process.exit(stopping ? 0 : (status ?? 1));
    }
    logger.info({ event: "build_finished" });
  }
  if (!development) prepareStandalone();

  const appUrl = new URL(config.appUrl);
  const host = isLoopbackHost(appUrl.hostname) ? await loopbackBindName(appUrl.hostname, logger) : "0.0.0.0";
  const dashboard = development
    ? // `next dev` with the same method guard (scripts/method-guard.ts): its server process inherits it.
      spawn(process.execPath, ["--import", METHOD_GUARD, nextBin, "dev", "-p", String(config.port), "-H", host], {
        cwd: projectRoot(),
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...childEnv, NODE_ENV: "development" },
      })
    : // Next.js's standalone server, with the method guard loaded first (scripts/method-guard.ts).
      spawn(process.execPath, ["--import", METHOD_GUARD, standaloneServer()], {
        cwd: projectRoot(".next", "standalone"),
        stdio: ["ignore", "pipe", "pipe"],
        // The dashboard's own clean shutdown handles SIGTERM (lib/server/graceful-shutdown.ts).
        env: { ...childEnv, NODE_ENV: "production", PORT: String(config.port), HOSTNAME: host, [MANUAL_SIGNAL_HANDLING]: "1" },
      });
  child = dashboard;
  forwardLines(dashboard.stdout, logger, "info");
  forwardLines(dashboard.stderr, logger, "warn");

  if (stopSandbox) {
    console.info(`\nMember companion dashboard: ${config.appUrl}`);
    console.info(`Embedded in the site's "My learning" page: ${env.SITE_URL}/my-learning`);
    console.info(`The site's operator area: ${env.SITE_URL}/admin (olivia@example.com)`);
    console.info("Demo sign-ins (password for all: demo):");
    for (const member of DEMO_MEMBERS) console.info(`  ${member.email.padEnd(22)} ${member.description}`);
  } else {
    logger.info({ event: "dashboard_starting", url: config.appUrl });
  }

  dashboard.on("exit", (code, signal) => {
    void (stopSandbox?.() ?? Promise.resolve()).then(() => {
      logger.info({ event: "stopped", exitCode: code, signal });
      process.exit(code ?? 1);
    });
  });
}

void main();

/**
 * The name the server listens on for a loopback APP_URL. Next.js 16.4's proxy sees a loopback IP as
 * "localhost" while its router keeps the IP it was started with, so each proxy rewrite (the signed-out
 * page's copies, proxy.ts) would go over the network back to the server itself (vercel/next.js#94745):
 * when "localhost" resolves to APP_URL's own address, the server listens under that name, on that address.
 */
async function loopbackBindName(hostname: string, logger: Logger): Promise<string> {
  const address = hostname.replace(/^\[|\]$/g, "");
  if (address === "localhost") return address;
  try {
    if ((await lookup("localhost")).address === address) return "localhost";
  } catch {
    // No name for loopback: the address itself.
  }
  logger.warn(
    { event: "loopback_name_differs", address },
    `"localhost" does not resolve to ${address}: the signed-out page's rewrites may fail`,
  );
  return address;
}
