/**
 * Starts the app for the Firefox suite exactly as Playwright's webServer does (playwright.config.ts): the
 * README's run command on the test ports, with the sandbox and its control endpoints. Outside CI, an app
 * already answering on those ports is reused. The server is stopped by its PID at the end.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

import { APP_URL, SITE_URL } from "../journeys/urls";
import { ChildOutput } from "../support/child-output";
import { waitUntil } from "../support/wait-until";

const root = path.resolve(import.meta.dirname, "..", "..");
const STARTUP_TIMEOUT_MS = 300_000;

async function healthy(): Promise<boolean> {
  try {
    return (await fetch(`${APP_URL}/api/health`)).ok;
  } catch {
    return false;
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  if (!process.env.CI && (await healthy())) return async () => {};
  // As `npm start` runs it: Node itself with tsx's loader, so the SIGTERM below reaches the launcher.
  const server: ChildProcess = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      PORT: new URL(APP_URL).port,
      APP_URL,
      SANDBOX_PORT: new URL(SITE_URL).port,
      SANDBOX_CONTROL: "1",
      SITE_URL: "",
    },
  });
  const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
  try {
    await waitUntil(healthy, {
      what: `the app answering on ${APP_URL}`,
      timeoutMs: STARTUP_TIMEOUT_MS,
      intervalMs: 500,
      process: new ChildOutput(server),
    });
  } catch (error) {
    server.kill("SIGTERM");
    throw error;
  }
  return async () => {
    if (server.exitCode === null) server.kill("SIGTERM");
    await exited;
  };
}
