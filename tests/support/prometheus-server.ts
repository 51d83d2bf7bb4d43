/**
 * Debian's `prometheus` for tests: started on a free loopback port with a temporary configuration and storage,
 * no daemon, no download; stopped by its PID. Read back through its HTTP API (`/api/v1/query`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { freePort } from "./redis-server";

export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

export class PrometheusServer {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly directory: string,
    private readonly output: () => string,
  ) {}

  /** Starts Prometheus with `config` (YAML; `{dir}` stands for its temporary directory) and waits until it is ready. */
  static async start(config: (directory: string) => string, files: Record<string, string> = {}): Promise<PrometheusServer> {
    const directory = mkdtempSync(path.join(tmpdir(), "dashboard-prometheus-"));
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(directory, name), content, { mode: 0o600 });
    writeFileSync(path.join(directory, "prometheus.yml"), config(directory));
    const port = await freePort();
    const child = spawn(
      "prometheus",
      [
        `--config.file=${path.join(directory, "prometheus.yml")}`,
        `--storage.tsdb.path=${path.join(directory, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
        "--log.level=warn",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000));
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const server = new PrometheusServer(`http://127.0.0.1:${port}`, child, directory, () => output);
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}:\n${output}`);
      const ready = await fetch(`${server.url}/-/ready`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) return server;
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`prometheus did not become ready:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async query(promql: string): Promise<PromSample[]> {
    const response = await fetch(`${this.url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
    const body = (await response.json()) as { status: string; data?: { result: PromSample[] }; error?: string };
    if (body.status !== "success" || !body.data) throw new Error(`query ${promql} failed: ${body.error ?? response.status}`);
    return body.data.result;
  }

  /** Polls `promql` until `accept` holds for its result (Prometheus scrapes every second), or throws with the last result. */
  async waitFor(promql: string, accept: (samples: PromSample[]) => boolean, timeoutMs = 30_000): Promise<PromSample[]> {
    const deadline = Date.now() + timeoutMs;
    let last: PromSample[] = [];
    for (;;) {
      last = await this.query(promql);
      if (accept(last)) return last;
      if (Date.now() > deadline) throw new Error(`${promql} never matched; last result: ${JSON.stringify(last)}\n${this.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once("exit", resolve));
      this.child.kill("SIGTERM");
      await exited;
    }
    rmSync(this.directory, { recursive: true, force: true });
  }
}

/** The value of the one sample of `samples` (a query that sums), or 0 when there is none. */
export function valueOf(samples: PromSample[]): number {
  return samples.length === 0 ? 0 : Number(samples[0]!.value[1]);
}
