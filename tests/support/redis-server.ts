/**
 * A real `redis-server` (Debian's, installed by .ci/run) for tests: started on a free loopback port with a
 * temporary directory, no daemon, no Docker, no download; stopped by its PID. `pause`/`resume` (SIGSTOP,
 * SIGCONT) make it hang without closing connections; `kill` (SIGKILL) and `start` again on the same port
 * and directory bring it back with its append-only file, as an operator's restart would.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { ChildOutput } from "./child-output";
import { freePort } from "./free-port";
import { waitUntil } from "./wait-until";

export const REDIS_SERVER_BINARY = process.env.REDIS_SERVER_PATH ?? "redis-server";

/**
 * A fresh directory for a server's append-only file: in memory (/dev/shm) where the machine lets us write
 * there, else the temporary directory. With `appendfsync always` each write is answered after its fsync, and
 * on a disk shared with the suites beside (Firefox's profiles) one fsync past REDIS_COMMAND_TIMEOUT_MS (500 ms)
 * is a 503 that no test is about. The whole instances suite writes about 160 KB. The file outlives the
 * process, so a restart on the same directory restores it.
 */
function dataDirectory(): string {
  try {
    return mkdtempSync(path.join("/dev/shm", "dash-redis-"));
  } catch {
    return mkdtempSync(path.join(tmpdir(), "dash-redis-"));
  }
}

/**
 * Asks over a raw socket (no client library, so no reconnect logic to wait out) whether a key exists:
 * unlike PING, this is refused while Redis still loads its append-only file after a restart.
 */
function answersCommands(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("error", () => done(false));
    socket.once("data", (data) => done(data.toString().startsWith(":")));
    socket.connect(port, "127.0.0.1", () => socket.write("EXISTS readiness-probe\r\n"));
  });
}

export class RedisServer {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly extraArgs: readonly string[] = [],
  ) {}

  /** Starts a new server on a free port with a fresh temporary directory; `extraArgs` (e.g. --replicaof) are appended. */
  static async start(extraArgs: readonly string[] = []): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), dataDirectory(), extraArgs);
    await server.launch();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts (again) on the same port and directory, so the append-only file restores what was persisted. */
  async launch(): Promise<void> {
    if (this.child) throw new Error("redis-server is already running");
    const child = spawn(
      REDIS_SERVER_BINARY,
      [
        "--port",
        String(this.port),
        "--bind",
        "127.0.0.1",
        "--dir",
        this.dir,
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--maxmemory-policy",
        "noeviction",
        "--save",
        "",
        "--daemonize",
        "no",
        ...this.extraArgs,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    this.child = child;
    const output = new ChildOutput(child, 4000);
    child.once("exit", () => {
      if (this.child === child) this.child = undefined;
    });
    try {
      await waitUntil(() => answersCommands(this.port), { what: `redis-server on port ${this.port}`, timeoutMs: 10_000, process: output });
    } catch (error) {
      await this.kill();
      throw error;
    }
  }

  /** SIGSTOP: the server hangs; connections stay open and commands get no answer. */
  pause(): void {
    this.signal("SIGSTOP");
  }

  /** SIGCONT after `pause` (nothing when the server is not running). */
  resume(): void {
    this.child?.kill("SIGCONT");
  }

  /** SIGKILL, and waits for the process to be gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGCONT");
    child.kill("SIGKILL");
    await exited;
  }

  /** Stops the server and removes its directory. */
  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private signal(signal: NodeJS.Signals): void {
    if (!this.child) throw new Error("redis-server is not running");
    this.child.kill(signal);
  }
}
