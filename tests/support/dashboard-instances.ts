/**
 * Production dashboard processes for tests: each is the README's run command (`scripts/start.ts`, which
 * builds once with `next build` when sources changed, then serves the standalone bundle) with SITE_URL set, so it serves
 * the dashboard alone. Started on free loopback ports, stopped by process group id.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";

import { SEEDED_DASHBOARD_CLIENT } from "../../sandbox/seed";
import { authorizeWithoutBrowser } from "../../sandbox/testing";

import { freePort } from "./redis-server";
import { RouteBrowser } from "./route-browser";

const root = path.resolve(import.meta.dirname, "..", "..");

export interface DashboardInstance {
  name: string;
  port: number;
  url: string;
  /** The last lines the process printed (for a failure's message). */
  output(): string;
  stop(): Promise<void>;
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the dashboard exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the dashboard at ${url} did not become healthy within ${timeoutMs} ms:\n${output()}`);
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
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
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
    await waitForHealth(url, child, timeoutMs, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { name, port, url, output: () => output, stop };
}

/** A browser over real HTTP: cookies from Set-Cookie, no redirects followed. */
export class HttpBrowser extends RouteBrowser {
  get(base: string, path: string): Promise<Response> {
    return this.fetch(`${base}${path}`);
  }

  /** A state-changing call as the dashboard's own pages send it: the dashboard's Origin and the custom header. */
  post(base: string, path: string, origin: string, body: unknown = {}): Promise<Response> {
    const headers = { origin, "x-requested-with": "companion-dashboard", "content-type": "application/json" };
    return this.fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  }

  /** Another browser holding a copy of these cookies as they are now. */
  snapshot(): HttpBrowser {
    const copy = new HttpBrowser();
    copy.cookies = new Map(this.cookies);
    return copy;
  }
}

export interface HttpSignIn {
  browser: HttpBrowser;
  /** The callback's path and query, to replay it. */
  callbackPath: string;
  /** The cookies the browser held when the site sent it back (the sign-in transaction). */
  transactionCookies: Map<string, string>;
  /** The callback's answer. */
  done: Response;
}

/** Signs in through the dashboard at `appUrl` and the sandbox's real pages, as a browser would. */
export async function signInOverHttp(
  appUrl: string,
  loginPath = "/api/auth/login?returnTo=%2F",
  email = "maya@example.com",
): Promise<HttpSignIn> {
  const browser = new HttpBrowser();
  const started = await browser.get(appUrl, loginPath);
  if (started.status !== 303) throw new Error(`login answered ${started.status}`);
  const redirect = await authorizeWithoutBrowser(started.headers.get("location")!, { email });
  const transactionCookies = new Map(browser.cookies);
  const callbackPath = `${redirect.pathname}${redirect.search}`;
  const done = await browser.get(appUrl, callbackPath);
  return { browser, callbackPath, transactionCookies, done };
}
