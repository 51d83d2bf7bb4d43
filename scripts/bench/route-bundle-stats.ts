/**
 * Each page route's first-load JavaScript, gzip. `next build` (Turbopack, since Next.js 16.4) writes
 * `.next/diagnostics/route-bundle-stats.json`: per route, the uncompressed size of the JavaScript a
 * first load needs and the chunk files it is made of (the root layout's and the page's client
 * references plus the shared main files). Browsers get them compressed, so each chunk is gzipped here
 * (level 9, what a CDN or Next.js's compression sends at most) and the sizes summed per route.
 *
 * Next.js unions every client-reference entry of a route's manifest, `app/global-not-found` included:
 * the 404 for a path no page has, never part of another route's first load. Where that entry brings
 * chunks the route's own layouts and page do not (the signed-out page, whose root layout is not the
 * member's), they are counted apart (`notFoundOnlyGzipBytes`), and the target is judged without them.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
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
  /** Of `firstLoadGzipBytes`, the chunks only `app/global-not-found` brings (0 for most routes). */
  notFoundOnlyGzipBytes: number;
}

const GLOBAL_NOT_FOUND_ENTRY = "/app/global-not-found";
const requireManifest = createRequire(import.meta.url);

/** Each page route's app path (`/(member)/courses/page`), as the build's app-paths manifest names it. */
function pagePathsByRoute(distDirectory: string): Map<string, string> {
  const appPaths = path.join(distDirectory, "server", "app-paths-manifest.json");
  if (!existsSync(appPaths)) return new Map();
  const { normalizeAppPath } = requireManifest("next/dist/shared/lib/router/utils/app-paths") as {
    normalizeAppPath: (appPath: string) => string;
  };
  return new Map(
    Object.keys(JSON.parse(readFileSync(appPaths, "utf8")) as Record<string, string>)
      .filter((appPath) => appPath.endsWith("/page"))
      .map((appPath) => [normalizeAppPath(appPath), appPath]),
  );
}

/**
 * The chunks (relative to the project) that a page's client-reference manifest lists only for
 * `app/global-not-found`; none without a manifest.
 */
function notFoundOnlyChunks(projectDirectory: string, pagePath: string): string[] {
  const distDirectory = path.join(projectDirectory, ".next");
  const manifestFile = path.join(distDirectory, "server", "app", `${pagePath}_client-reference-manifest.js`);
  if (!existsSync(manifestFile)) return [];
  // The manifest is a script that sets a global, as Next.js itself reads it.
  type ClientReferenceManifest = Record<string, { entryJSFiles?: Record<string, string[]> }>;
  const holder = globalThis as { __RSC_MANIFEST?: ClientReferenceManifest };
  const previous = holder.__RSC_MANIFEST;
  holder.__RSC_MANIFEST = undefined;
  let entries: Record<string, string[]> = {};
  try {
    requireManifest(manifestFile);
    // (Read back through a cast: TypeScript takes the global for the undefined just written.)
    const loaded = holder.__RSC_MANIFEST as ClientReferenceManifest | undefined;
    entries = loaded?.[pagePath]?.entryJSFiles ?? {};
  } finally {
    holder.__RSC_MANIFEST = previous;
  }
  const notFound = Object.entries(entries).find(([entry]) => entry.endsWith(GLOBAL_NOT_FOUND_ENTRY))?.[1] ?? [];
  const others = new Set(
    Object.entries(entries)
      .filter(([entry]) => !entry.endsWith(GLOBAL_NOT_FOUND_ENTRY))
      .flatMap(([, files]) => files),
  );
  return notFound.filter((file) => !others.has(file)).map((file) => path.relative(projectDirectory, path.join(distDirectory, file)));
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
  const pagePaths = pagePathsByRoute(path.join(projectDirectory, ".next"));
  // The 404 route's own chunks are its first load; any other page's that only the 404 lists are not.
  const notFoundOnly = (route: string) => {
    const pagePath = route === "/_not-found" ? undefined : pagePaths.get(route);
    return pagePath ? notFoundOnlyChunks(projectDirectory, pagePath) : [];
  };
  const routes = rows
    .map((row) => ({
      route: row.route,
      uncompressedBytes: row.firstLoadUncompressedJsBytes,
      firstLoadGzipBytes: row.firstLoadChunkPaths.reduce((sum, chunk) => sum + gzipSize(chunk), 0),
      chunks: row.firstLoadChunkPaths.length,
      notFoundOnlyGzipBytes: notFoundOnly(row.route)
        .filter((chunk) => row.firstLoadChunkPaths.includes(chunk))
        .reduce((sum, chunk) => sum + gzipSize(chunk), 0),
    }))
    .sort((a, b) => b.firstLoadGzipBytes - a.firstLoadGzipBytes);
  return { source: ROUTE_BUNDLE_STATS, routes };
}
