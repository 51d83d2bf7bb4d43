/**
 * Runs `task` once the browser is idle after the page loaded (within 3 s at the latest), or after a second
 * where it cannot say; returns what cancels it. For code fetched ahead of a tap that may come offline.
 */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const idle = window.requestIdleCallback(task, { timeout: 3_000 });
    return () => window.cancelIdleCallback(idle);
  }
  const timer = window.setTimeout(task, 1_000);
  return () => window.clearTimeout(timer);
}
