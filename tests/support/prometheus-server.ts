/**
 * Debian's `prometheus` for tests: started on a free loopback port with a temporary configuration and storage,
 * no daemon, no download; stopped by its PID. Read back through its HTTP API (`/api/v1/query`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { ChildOutput } from "./child-output";
import { freePort } from "./free-port";
import { waitUntil } from "./wait-until";

export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

export class PrometheusServer {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly directory: string,
    private readonly output: ChildOutput,
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
    const output = new ChildOutput(child, 10_000);
    const server = new PrometheusServer(`http://127.0.0.1:${port}`, child, directory, output);
    try {
      await waitUntil(async () => (await fetch(`${server.url}/-/ready`)).ok, {
        what: "prometheus ready",
        timeoutMs: 30_000,
        intervalMs: 200,
        process: output,
      });
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  async query(promql: string): Promise<PromSample[]> {
    const response = await fetch(`${this.url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
    const body = (await response.json()) as { status: string; data?: { result: PromSample[] }; error?: string };
    if (body.status !== "success" || !body.data) throw new Error(`query ${promql} failed: ${body.error ?? response.status}`);
    return body.data.result;
  }

  /** Polls `promql` until `accept` holds for its result (Prometheus scrapes every second), or throws with the last result. */
  async waitFor(promql: string, accept: (samples: PromSample[]) => boolean, timeoutMs = 30_000): Promise<PromSample[]> {
    let last: PromSample[] | undefined;
    const matched = async () => {
      last = await this.query(promql);
      return accept(last) ? last : undefined;
    };
    try {
      return await waitUntil(matched, { what: `${promql} matching`, timeoutMs, intervalMs: 500, process: this.output });
    } catch (error) {
      throw new Error(`${(error as Error).message}\nlast result: ${JSON.stringify(last)}`);
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
