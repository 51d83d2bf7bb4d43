/**
 * What every section of `npm run bench` gets: where the dashboard and the site are, the dashboard's
 * server process, a signed-in member (dashboard cookies and a direct token), and the run's options.
 * A section is one named measurement; scripts/bench.ts runs them in order.
 */
import type { Inspector } from "./dashboard-process";
import type { BenchTarget, Cookies } from "./members";

export interface BenchOptions {
  /** Sequential rounds per side. */
  rounds: number;
  connections: number;
  /** Seconds per side of the concurrent run, split into interleaved rounds. */
  concurrentSeconds: number;
  soak: boolean;
  soakSeconds: number;
  soakConnections: number;
  soakSessions: number;
  /** Requests each page-view side serves before it is timed (page-views.ts). */
  pageWarmUpRequests: number;
  /** Lighthouse runs per page; the median of each figure is printed (lighthouse.ts). */
  lighthouseRuns: number;
}

export interface BenchContext {
  target: BenchTarget;
  options: BenchOptions;
  /** The Next.js server process that serves the dashboard. */
  serverPid: number;
  /** The process that runs the sandbox site (the launcher, `npm start`'s own process). */
  sitePid: number;
  member: Cookies;
  directToken: string;
  /** The server's inspector, opened on first use. */
  inspector(): Promise<Inspector>;
  /** Writes a file under artifacts/ and returns its path relative to the repository. */
  writeArtifact(name: string, content: string): string;
}

export interface SectionOutcome {
  /** Lines for the terminal and the README's table. */
  summary: string[];
  /** Figures for artifacts/bench.json. */
  results: Record<string, unknown>;
}

export interface BenchSection {
  /** Key in artifacts/bench.json and name for `--only`. */
  name: string;
  title: string;
  enabled(options: BenchOptions): boolean;
  run(context: BenchContext): Promise<SectionOutcome>;
}

export function round(value: number, digits = 1): number {
  return Number(value.toFixed(digits));
}
