import type { ChildProcess } from "node:child_process";

/**
 * What a child process writes to stdout and stderr, kept as one text (its last `keepLast` characters when
 * given): for a test to wait on a line, read the JSON log lines, and show in a failure's message.
 */
export class ChildOutput {
  private kept = "";
  private readonly closed: Promise<void>;

  constructor(
    readonly child: ChildProcess,
    keepLast = Number.POSITIVE_INFINITY,
  ) {
    const keep = (chunk: Buffer) => (this.kept = (this.kept + chunk.toString("utf8")).slice(-keepLast));
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    this.closed = new Promise((resolve) => child.once("close", () => resolve()));
  }

  /**
   * Its output once the process has ended: a process's exit can come before the last of its output has been
   * read, so this waits for its streams to close, for a second at most (a process it started may hold them).
   */
  async final(): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.closed, new Promise((resolve) => (timer = setTimeout(resolve, 1_000)))]);
    clearTimeout(timer);
    return this.kept;
  }

  text(): string {
    return this.kept;
  }

  /** Whether the process has ended (by exiting or by a signal). */
  ended(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** The JSON lines it printed (the launcher's and the dashboard's log lines), in order. */
  jsonLines(): Record<string, unknown>[] {
    return this.kept
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Its JSON lines whose `event` is `name`. */
  events(name: string): Record<string, unknown>[] {
    return this.jsonLines().filter((line) => line.event === name);
  }
}
