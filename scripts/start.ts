/**
 * The one command that runs the app (README). With no SITE_URL it starts the sandbox site and the
 * dashboard wired to each other; with SITE_URL (and the other variables of DESIGN.md section 3) it
 * serves the dashboard alone against that site. `--dev` runs Next.js in development mode.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

import { ConfigError, isLoopbackHost, parseEnv } from "../lib/config/env-schema";
import { loadSandboxConfig } from "../sandbox/config";
import { SEEDED_DASHBOARD_CLIENT, DEMO_MEMBERS } from "../sandbox/seed";
import { startSandbox } from "../sandbox/server";

const root = path.resolve(import.meta.dirname, "..");
const development = process.argv.includes("--dev");

function newestSourceChange(dir: string): number {
  // A directory the checkout does not have (public/ is optional) holds no change.
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function buildIsCurrent(): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return false;
  const built = statSync(buildId).mtimeMs;
  // A fresh checkout may lack public/ (git keeps no empty folder).
  const sources = ["app", "components", "lib", "public"].map((dir) => path.join(root, dir)).filter((dir) => existsSync(dir)).map(newestSourceChange);
  const files = ["proxy.ts", "next.config.mjs", "package.json", "postcss.config.mjs"].map((file) => statSync(path.join(root, file)).mtimeMs);
  return Math.max(...sources, ...files) < built;
}

async function main(): Promise<void> {
  const env: Record<string, string | undefined> = { ...process.env };
  let stopSandbox: (() => Promise<void>) | undefined;

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
    env.OAUTH_CLIENT_ID ||= SEEDED_DASHBOARD_CLIENT.clientId;
    env.OAUTH_CLIENT_SECRET ||= SEEDED_DASHBOARD_CLIENT.clientSecret;
    env.APP_URL = appUrl;
    // Generated for the local demo only: production deployments must set SESSION_SECRET.
    env.SESSION_SECRET ||= randomBytes(32).toString("base64url");
    console.info(`Sandbox site: ${sandbox.url}`);
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

  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  if (!development && !buildIsCurrent()) {
    console.info("Building the dashboard (once per change)...");
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit", env: { ...env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" } });
    if (build.status !== 0) {
      await stopSandbox?.();
      process.exit(build.status ?? 1);
    }
  }

  const host = isLoopbackHost(new URL(config.appUrl).hostname) ? new URL(config.appUrl).hostname.replace(/^\[|\]$/g, "") : "0.0.0.0";
  // Production runs Next.js behind scripts/serve.ts, which refuses HTTP methods a path does not answer.
  const serverArgs = development
    ? [nextBin, "dev", "-p", String(config.port), "-H", host]
    : ["--import", "tsx", path.join(root, "scripts", "serve.ts"), String(config.port), host];
  const child = spawn(process.execPath, serverArgs, {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...env, NODE_ENV: development ? "development" : "production", NEXT_TELEMETRY_DISABLED: "1" },
  });

  console.info(`\nMember companion dashboard: ${config.appUrl}`);
  if (stopSandbox) {
    console.info(`Embedded in the site's "My learning" page: ${env.SITE_URL}/my-learning`);
    console.info(`The site's operator area: ${env.SITE_URL}/admin (olivia@example.com)`);
    console.info("Demo sign-ins (password for all: demo):");
    for (const member of DEMO_MEMBERS) console.info(`  ${member.email.padEnd(22)} ${member.description}`);
  }

  const shutdown = (signal: NodeJS.Signals) => {
    child.kill(signal);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  child.on("exit", (code) => {
    void (stopSandbox?.() ?? Promise.resolve()).then(() => process.exit(code ?? 0));
  });
}

void main();
