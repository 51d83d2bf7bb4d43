/**
 * Production dashboard processes for tests: each is the README's run command (`scripts/start.ts`, which
 * builds once with `next build` when sources changed, then serves the standalone bundle) with SITE_URL set, so it serves
 * the dashboard alone. Started on free loopback ports, stopped by process group id.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";

import { SEEDED_DASHBOARD_CLIENT } from "../../sandbox/seed";

import { ChildOutput } from "./child-output";
import { freePort } from "./free-port";
import { waitUntil } from "./wait-until";

const root = path.resolve(import.meta.dirname, "..", "..");

export interface DashboardInstance {
  name: string;
  port: number;
  url: string;
  /** The last lines the process printed (for a failure's message). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The environment every instance of one multi-instance suite shares: the sandbox's seeded client, one
 * public address (the proxy in front of them), one session secret, and the shared state (`shared`:
 * REDIS_URL, or REDIS_SENTINELS and REDIS_SENTINEL_NAME) under the suite's own key prefix.
 */
export function sharedInstanceEnvironment(options: {
  siteUrl: string;
  appUrl: string;
  shared: Record<string, string>;
  redisPrefix: string;
  logLevel: "error" | "warn";
}): Record<string, string> {
  return {
    SITE_URL: options.siteUrl,
    OAUTH_CLIENT_ID: SEEDED_DASHBOARD_CLIENT.clientId,
    OAUTH_CLIENT_SECRET: SEEDED_DASHBOARD_CLIENT.clientSecret,
    APP_URL: options.appUrl,
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    ...options.shared,
    REDIS_PREFIX: options.redisPrefix,
    LOG_LEVEL: options.logLevel,
  };
}

/** Starts one dashboard process with `env` (SITE_URL, APP_URL, SESSION_SECRET, REDIS_URL...) on `port` (default: a free one). */
export async function startDashboardInstance(
  name: string,
  env: Record<string, string>,
  timeoutMs: number,
  port?: number,
): Promise<DashboardInstance> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: the launcher and the server stop together.
    detached: true,
  });
  const output = new ChildOutput(child, 20_000);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        return;
      }
      const killed = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // Already gone.
        }
      }, 5_000);
      await exited;
      clearTimeout(killed);
    }
  };
  try {
    await waitUntil(async () => (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok, {
      what: `the dashboard at ${url} healthy`,
      timeoutMs,
      intervalMs: 250,
      process: output,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { name, port, url, output: () => output.text(), stop };
}
