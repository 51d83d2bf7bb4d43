import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { ChildOutput } from "../support/child-output";
import { waitUntil } from "../support/wait-until";

const root = path.resolve(import.meta.dirname, "..", "..");
const PROBE = "tests/support/busy-when-signalled.ts";

/** Starts `args` with this Node, sends SIGTERM while its event loop is busy, and gives its exit code and output. */
async function signalledWhileBusy(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  const output = new ChildOutput(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  await waitUntil(() => output.text().includes("busy"), { what: "the probe's start", timeoutMs: 20_000, intervalMs: 20, process: output });
  // The probe's event loop is busy for two seconds from now.
  child.kill("SIGTERM");
  return { code: await exited, output: output.text() };
}

/**
 * The README's run commands stop cleanly on SIGTERM or Ctrl-C: the launcher's handler stops the server and
 * the sandbox it started (scripts/start.ts). tsx's command line would stand between the signal and the
 * launcher: it relays the signal and, when the process does not acknowledge it within 30 ms, kills it
 * outright, leaving its children running. So each run command is Node itself with tsx's loader.
 */
describe("the run commands take signals themselves", () => {
  const { scripts } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };

  it.each(["start", "dev", "sandbox"])("npm run %s is Node itself, with tsx's loader", (name) => {
    expect(scripts[name]).toMatch(/^exec node --import tsx \S+\.ts( |$)/);
  });

  it("so a process busy when SIGTERM comes still runs its own handler and exits 0", async () => {
    const { code, output } = await signalledWhileBusy(["--import", "tsx", PROBE]);
    expect(output).toContain("stopped cleanly");
    expect(code).toBe(0);
  });

  it("where tsx's command line kills it before its handler runs (why the run commands do not use it)", async () => {
    const { code, output } = await signalledWhileBusy([path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), PROBE]);
    expect(output).not.toContain("stopped cleanly");
    expect(code).toBe(143);
  });
});
