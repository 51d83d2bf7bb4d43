/** The floor app starts nothing (the dashboard's own instrumentation.ts, one folder up the tree, is not its). */
export function register(): void {}
