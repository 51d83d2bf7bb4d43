/**
 * `after` of next/server for a page rendered in a test, where Next.js's request scope (which `after` needs)
 * does not exist: what the render schedules runs when the test calls `runAfterResponse()`, as Next.js runs
 * it once the answer is sent. A test file keeps the rest of next/server with
 * `vi.mock("next/server", async (real) => ({ ...(await real<object>()), ...(await import("../support/after-response")) }))`.
 */
const scheduled: (() => unknown)[] = [];

export function after(task: () => unknown): void {
  scheduled.push(task);
}

/** Runs, in order, what the renders since the last call scheduled. */
export async function runAfterResponse(): Promise<void> {
  for (const task of scheduled.splice(0)) await task();
}
