import { spawn } from "node:child_process";

import { describe, expect, it } from "vitest";

import { ChildOutput } from "../../support/child-output";
import { waitUntil } from "../../support/wait-until";

/** Node printing `lines` (to stdout, then stderr), then exiting with `code`, or staying up when `code` is undefined. */
function node(lines: [string, string], code?: number): ChildOutput {
  const script =
    `console.log(${JSON.stringify(lines[0])}); console.error(${JSON.stringify(lines[1])});` +
    (code === undefined ? "setInterval(() => {}, 1000);" : `process.exit(${code});`);
  return new ChildOutput(spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] }));
}

describe("the tests' waits", () => {
  it("give the first truthy value of the check, counting a check that throws as not yet", async () => {
    let calls = 0;
    const value = await waitUntil(
      () => {
        calls += 1;
        if (calls === 1) throw new Error("not listening yet");
        return calls === 3 && { port: 3000 };
      },
      { what: "the third call", timeoutMs: 5_000, intervalMs: 1 },
    );
    expect(value).toEqual({ port: 3000 });
    expect(calls).toBe(3);
  });

  it("fail after the timeout, naming what was awaited", async () => {
    await expect(waitUntil(() => false, { what: "a value that never comes", timeoutMs: 50, intervalMs: 5 })).rejects.toThrow(
      "a value that never comes: not within 50 ms",
    );
  });

  it("fail as soon as the process they wait on has ended, with its exit code and its output from both streams", async () => {
    const output = node(["started", "port in use"], 3);
    const started = Date.now();
    const failure = await waitUntil(() => false, { what: "the server", timeoutMs: 60_000, process: output }).catch(
      (error: unknown) => error,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^the server: the process ended \(exit 3\) first\n/);
    expect((failure as Error).message).toContain("started");
    expect((failure as Error).message).toContain("port in use");
  });

  it("read a process's output as it comes, and its JSON lines by event", async () => {
    const output = node(['{"event":"ready","port":1}', "not json"]);
    try {
      await waitUntil(() => output.text().includes("not json"), { what: "both lines", timeoutMs: 20_000, process: output });
      expect(output.events("ready")).toEqual([{ event: "ready", port: 1 }]);
      expect(output.events("stopped")).toEqual([]);
    } finally {
      output.child.kill("SIGKILL");
    }
  });

  it("keep only the last characters when told to", async () => {
    const output = new ChildOutput(
      spawn(process.execPath, ["-e", "process.stdout.write('x'.repeat(500) + 'end')"], { stdio: ["ignore", "pipe", "pipe"] }),
      10,
    );
    expect(await output.final()).toBe("xxxxxxxend");
  });
});
