/**
 * Each page route's first-load JavaScript, gzip. `next build` (Turbopack, Next.js 16.4) writes
 * `.next/diagnostics/route-bundle-stats.json`: per route, the uncompressed size of the JavaScript a
 * first load needs and the chunk files it is made of (the root layout's and the page's client
 * references plus the shared main files). Browsers get them compressed, so each chunk is gzipped here
 * (level 9, what a CDN or Next.js's compression sends at most) and the sizes summed per route.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const root = path.resolve(import.meta.dirname, "..", "..");
export const ROUTE_BUNDLE_STATS = path.join(".next", "diagnostics", "route-bundle-stats.json");

interface NextRouteBundleRow {
  route: string;
  firstLoadUncompressedJsBytes: number;
  /** Relative to the project. */
  firstLoadChunkPaths: string[];
}

export interface RouteFirstLoad {
  route: string;
  uncompressedBytes: number;
  firstLoadGzipBytes: number;
  chunks: number;
}

/** The routes of the app built in `projectDirectory` (the dashboard by default; the lab's floor app too). */
export function readRouteBundleStats(projectDirectory = root): { source: string; routes: RouteFirstLoad[] } {
  const file = path.join(projectDirectory, ROUTE_BUNDLE_STATS);
  if (!existsSync(file)) throw new Error(`${ROUTE_BUNDLE_STATS} is missing: it is written by \`next build\` (Turbopack)`);
  const rows = JSON.parse(readFileSync(file, "utf8")) as NextRouteBundleRow[];
  const gzipped = new Map<string, number>();
  const gzipSize = (chunk: string) => {
    let size = gzipped.get(chunk);
    if (size === undefined) {
      size = gzipSync(readFileSync(path.join(projectDirectory, chunk)), { level: 9 }).length;
      gzipped.set(chunk, size);
    }
    return size;
  };
  const routes = rows
    .map((row) => ({
      route: row.route,
      uncompressedBytes: row.firstLoadUncompressedJsBytes,
      firstLoadGzipBytes: row.firstLoadChunkPaths.reduce((sum, chunk) => sum + gzipSize(chunk), 0),
      chunks: row.firstLoadChunkPaths.length,
    }))
    .sort((a, b) => b.firstLoadGzipBytes - a.firstLoadGzipBytes);
  return { source: ROUTE_BUNDLE_STATS, routes };
}
