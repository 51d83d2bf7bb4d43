/**
 * The deployable bundle (`output: "standalone"`): when it must be rebuilt, and what `next build` leaves
 * for us to copy beside it (README, Deploy: `.next/static` and `public`).
 */
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

import { replaceFile, writeRouteTable } from "../lib/http/method-policy.ts";

import { writeStaticPageHashes } from "./static-page-hashes.ts";

const root = path.resolve(import.meta.dirname, "..");

export function projectRoot(...segments: string[]): string {
  return path.join(root, ...segments);
}

/** Everything `next build` reads. A missing entry (a fresh clone has no `public/` if git lost it) is simply not there. */
const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.mjs",
  "package.json",
  "package-lock.json",
  "postcss.config.mjs",
  "tsconfig.json",
  "tsconfig.next.json",
];

/** The newest modification time under `target`; 0 when it does not exist. */
function newestChange(target: string): number {
  let stats;
  try {
    stats = statSync(target);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    newest = Math.max(newest, newestChange(path.join(target, entry.name)));
  }
  return newest;
}

/**
 * The method guard, copied into the bundle beside server.js and loaded before it with `node --import`
 * (scripts/method-guard.ts and the modules it imports; Node.js runs their TypeScript as it is). The route
 * table it reads (lib/http/method-policy.ts) is written into the bundle by the build. The same path,
 * from the project's root, loads it before `next dev`.
 */
export const METHOD_GUARD = "./scripts/method-guard.ts";
export const METHOD_GUARD_FILES = ["scripts/method-guard.ts", "lib/http/method-policy.ts", "lib/format/bounded-memory.ts"];

/** The standalone bundle's server; `root` is the project's root (tests give another). */
export function standaloneServer(root = projectRoot()): string {
  return path.join(root, ".next", "standalone", "server.js");
}

/**
 * True when the last build is newer than every build input and left the standalone server behind.
 * `root` is the project's root (tests give another).
 */
export function buildIsCurrent(root = projectRoot()): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const server = standaloneServer(root);
  if (!existsSync(buildId) || !existsSync(server)) return false;
  // A build that failed after writing BUILD_ID (while prerendering, say) left the old server.js: the older
  // of the two says when the bundle was last built whole.
  const built = Math.min(statSync(buildId).mtimeMs, statSync(server).mtimeMs);
  return Math.max(...BUILD_INPUTS.map((input) => newestChange(path.join(root, input)))) < built;
}

/**
 * `next build` leaves the static assets and `public/` out of .next/standalone (a CDN may serve them);
 * the bundle serves them itself once they are copied in, on every start.
 */
export function prepareStandalone(): void {
  const copies: [string, string][] = [
    [projectRoot(".next", "static"), projectRoot(".next", "standalone", ".next", "static")],
    [projectRoot("public"), projectRoot(".next", "standalone", "public")],
  ];
  // Copied over, never removed first: another instance may already serve from this bundle (the hashed
  // static files of one build never change, so nothing goes stale).
  for (const [from, to] of copies) if (existsSync(from)) cpSync(from, to, { recursive: true, force: true });
  for (const file of METHOD_GUARD_FILES) replaceFile(projectRoot(".next", "standalone", file), readFileSync(projectRoot(file)));
  writeRouteTable(root, projectRoot(".next", "standalone"));
  writeStaticPageHashes(projectRoot(".next"), projectRoot(".next", "standalone"));
}
