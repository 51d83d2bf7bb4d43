import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { SHUTDOWN_GRACE_MS } from "@/lib/server/graceful-shutdown";

import { ChildOutput } from "../support/child-output";
import { waitUntil } from "../support/wait-until";

const root = path.resolve(import.meta.dirname, "..", "..");

interface Started {
  child: ChildProcess;
  url: string;
  output: ChildOutput;
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** The shutdown as the dashboard's server runs it (NEXT_MANUAL_SIG_HANDLE=1), on a plain HTTP server. */
async function startServer(): Promise<Started> {
  const child = spawn(
    process.execPath,
    // Node itself with tsx's loader, as `npm start` runs (tests/integration/run-commands.test.ts): tsx's own
    // command line would relay the signal, and kill the server outright when it answers late.
    ["--import", "tsx", "--conditions=react-server", "tests/support/graceful-server.ts"],
    {
      cwd: root,
      env: { ...process.env, NEXT_MANUAL_SIG_HANDLE: "1", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  started.push(child);
  const output = new ChildOutput(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const [, port] = await waitUntil(() => /listening (\d+)/.exec(output.text()), {
    what: "the server's start",
    timeoutMs: 30_000,
    process: output,
  });
  return { child, url: `http://127.0.0.1:${port}`, output, exited };
}

/**
 * Waits until the server has a slow request in hand: on a busy machine a fixed pause may end before the
 * request is parsed, and a connection with no request yet is idle, which a closing server ends at once.
 */
async function slowRequestArrived(server: Started): Promise<void> {
  await waitUntil(() => server.output.text().includes("slow request"), {
    what: "the slow request",
    timeoutMs: 30_000,
    intervalMs: 20,
    process: server.output,
  });
}

describe("clean shutdown", () => {
  it("on SIGTERM refuses new connections, finishes the request in flight and exits 0", async () => {
    const server = await startServer();
    const inFlight = fetch(`${server.url}/slow?ms=1500`);
    await slowRequestArrived(server);
    let answered = false;
    const settled = () => (answered = true);
    void inFlight.then(settled, settled);
    server.child.kill("SIGTERM");
    // Refused as soon as the signal has closed the listener (a loaded machine may take a moment), while the
    // slow request is still in flight.
    const refusesNewConnections = () =>
      fetch(`${server.url}/`).then(
        () => false,
        () => true,
      );
    await waitUntil(refusesNewConnections, { what: "the server refusing new connections", timeoutMs: 1_000, intervalMs: 50 });
    expect(answered, "the request was still in flight").toBe(false);
    // A second signal (a process group's) does not cut the drain short.
    server.child.kill("SIGTERM");
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("done");
    expect(await server.exited).toBe(0);
    expect(server.output.events("shutdown_finished")).toMatchObject([{ drained: true, requestsCutOff: 0 }]);
  });

  it("stops waiting for a request after the grace period and still exits 0", { timeout: SHUTDOWN_GRACE_MS + 30_000 }, async () => {
    const server = await startServer();
    const inFlight = fetch(`${server.url}/slow?ms=${SHUTDOWN_GRACE_MS * 3}`).catch((error: unknown) => error);
    await slowRequestArrived(server);
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const waited = Date.now() - signalled;
    expect(waited).toBeGreaterThanOrEqual(SHUTDOWN_GRACE_MS - 500);
    expect(waited).toBeLessThan(SHUTDOWN_GRACE_MS * 2);
    expect(await inFlight).toBeInstanceOf(Error);
    expect(server.output.events("shutdown_finished")).toMatchObject([{ drained: false, requestsCutOff: 1 }]);
  });
});
