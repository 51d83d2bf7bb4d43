import type { ChildOutput } from "./child-output";

export interface WaitOptions {
  /** What is awaited, for the failure's message. */
  what: string;
  timeoutMs: number;
  /** The pause between two checks; 50 ms unless given. */
  intervalMs?: number;
  /** A process the wait is for: its end fails the wait at once, and its output is in the failure's message. */
  process?: ChildOutput;
}

type NotYet = false | null | undefined;

/**
 * Runs `check` until it gives a truthy value, and returns that value. A check that throws counts as "not yet"
 * (a server not listening yet, a command refused while Redis restarts). Fails after `timeoutMs`, or as soon as
 * `options.process` has ended.
 *
 * Vitest's `vi.waitFor` does the same for a test but cannot stop at a process's exit, and keeps polling after
 * a race against it has been lost.
 */
export async function waitUntil<T>(check: () => T | NotYet | Promise<T | NotYet>, options: WaitOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  const output = () => (options.process ? `\n${options.process.text().slice(-3000)}` : "");
  for (;;) {
    if (options.process?.ended()) {
      const { exitCode, signalCode } = options.process.child;
      const last = (await options.process.final()).slice(-3000);
      throw new Error(`${options.what}: the process ended (${signalCode ?? `exit ${exitCode}`}) first\n${last}`);
    }
    const value = await Promise.resolve()
      .then(check)
      .catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${options.what}: not within ${options.timeoutMs} ms${output()}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
