/**
 * `npm start` as an operator reads it: in a terminal (a pseudo-terminal from util-linux `script`) human lines,
 * with Next.js's own output as Next.js prints it; through a pipe JSON lines, one object a line. The production
 * dashboard serves the sandbox (the README's run command with SITE_URL set; built once).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { SEEDED_DASHBOARD_CLIENT } from "@/sandbox/seed";

import { startDashboardInstance } from "../support/dashboard-instances";
import { ChildOutput } from "../support/child-output";
import { freePort } from "../support/free-port";
import { waitUntil } from "../support/wait-until";

const root = path.resolve(import.meta.dirname, "..", "..");

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dashboardRedirectUris: [] });
});
afterAll(async () => sandbox?.close());

function dashboardEnv(port: number): Record<string, string> {
  return {
    SITE_URL: sandbox.url,
    OAUTH_CLIENT_ID: SEEDED_DASHBOARD_CLIENT.clientId,
    OAUTH_CLIENT_SECRET: SEEDED_DASHBOARD_CLIENT.clientSecret,
    APP_URL: `http://127.0.0.1:${port}`,
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    PORT: String(port),
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

/** The lines of `output` without the terminal's carriage returns and colours. */
function linesOf(output: string): string[] {
  return output
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split(/\r?\n/)
    .map((line) => line.replace(/\r/g, ""))
    .filter((line) => line.trim() !== "");
}

describe("npm start's lines", () => {
  it(
    "read as plain human lines in a terminal, with Next.js's own lines as Next.js prints them",
    async () => {
      const port = await freePort();
      // `script -qec` gives the command a pseudo-terminal as stdout; its own stdout here is a pipe.
      // As `npm start` runs it: Node itself with tsx's loader (package.json).
      const child = spawn("script", ["-qec", `exec '${process.execPath}' --import tsx scripts/start.ts`, "/dev/null"], {
        cwd: root,
        env: { ...process.env, ...dashboardEnv(port), LOG_FORMAT: "", TERM: "dumb" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      const output = new ChildOutput(child);
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      try {
        await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/api/health`)).ok, {
          what: "the dashboard healthy",
          timeoutMs: 5 * 60_000,
          intervalMs: 250,
          process: output,
        });
        expect((await fetch(`http://127.0.0.1:${port}/api/session`)).status).toBe(401);
        await waitUntil(() => output.text().includes("/api/session"), { what: "the request's line", timeoutMs: 10_000, process: output });
      } finally {
        // Ctrl-C in the terminal: the launcher stops the dashboard and exits.
        child.stdin.write("\x03");
        const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 20_000))]);
        if (!stopped) child.kill("SIGKILL");
      }
      const lines = linesOf(output.text());
      expect(lines.filter((line) => line.trimStart().startsWith("{"))).toEqual([]);
      expect(lines).toContainEqual(
        expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: dashboard_starting \{"url":"http:\/\/127\.0\.0\.1:\d+"\}$/),
      );
      expect(lines).toContainEqual(expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: request .*"route":"\/api\/session","status":401/));
      // Next.js's start-up lines, unwrapped.
      expect(lines).toContainEqual(expect.stringMatching(/Ready in/));
      expect(output.text()).not.toContain("next_output");
    },
    6 * 60_000,
  );

  it(
    "are JSON lines through a pipe, Next.js's own lines wrapped as next_output",
    async () => {
      const port = await freePort();
      const instance = await startDashboardInstance("pipe", { ...dashboardEnv(port), LOG_FORMAT: "" }, 5 * 60_000, port);
      try {
        expect((await fetch(`${instance.url}/api/session`)).status).toBe(401);
        await waitUntil(() => instance.output().includes('"route":"/api/session"'), { what: "the request's line", timeoutMs: 10_000 });
      } finally {
        await instance.stop();
      }
      const lines = linesOf(instance.output());
      const parsed = lines.map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          throw new Error(`not a JSON line: ${line}`);
        }
      });
      expect(parsed.some((line) => line.event === "next_output" && typeof line.msg === "string" && line.msg.includes("Ready in"))).toBe(
        true,
      );
      expect(parsed).toContainEqual(expect.objectContaining({ event: "request", route: "/api/session", status: 401, level: "info" }));
    },
    6 * 60_000,
  );

  it(
    "follow LOG_FORMAT=pretty through a pipe too",
    async () => {
      const port = await freePort();
      const instance = await startDashboardInstance("pretty", { ...dashboardEnv(port), LOG_FORMAT: "pretty" }, 5 * 60_000, port);
      await instance.stop();
      const lines = linesOf(instance.output());
      expect(lines.filter((line) => line.trimStart().startsWith("{"))).toEqual([]);
      expect(lines).toContainEqual(expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: dashboard_starting /));
      expect(lines).toContainEqual(expect.stringMatching(/Ready in/));
    },
    6 * 60_000,
  );
});
