/**
 * Which HTTP methods each path of the dashboard answers. Next.js builds a Fetch `Request` for every
 * request, and the Fetch standard forbids TRACE, TRACK and CONNECT: Next.js then throws and answers
 * 500, for pages and API routes alike. It also renders a page for DELETE or PROPFIND. The production
 * server (scripts/method-guard.ts, loaded before Next.js's server, standalone or dev) asks this policy first and
 * answers anything else 405 with `Allow` (RFC 9110 sections 9.1 and 15.5.6; OWASP ASVS 5 V13.4, unused HTTP
 * methods refused).
 *
 * The API routes' table is never written by hand: it is read from the route files themselves (their
 * folder is the path, their exported handlers the methods). The standalone bundle has no sources, so the
 * build writes the table beside server.js (scripts/standalone.ts). Plain TypeScript that Node.js runs as it is.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/** One API route: its file, the pattern of the paths it serves (a RegExp source) and the methods it exports. */
export interface RouteMethods {
  route: string;
  pattern: string;
  methods: string[];
}

/** The file, beside server.js in the standalone bundle, that holds the table derived at build time. */
export const ROUTE_TABLE_FILE = "route-methods.json";

const HANDLER_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];
const EXPORTED_HANDLER = /export (?:(?:async )?function|const) (GET|HEAD|POST|PUT|DELETE|PATCH|OPTIONS)\b/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A folder name of the app router as a path pattern: `[x]` one segment, `[...x]` several, `(group)` none. */
function segmentPattern(segment: string): string {
  if (/^\(.*\)$/.test(segment)) return "";
  if (/^\[\[\.\.\..+\]\]$/.test(segment)) return "(?:/.+)?";
  if (/^\[\.\.\..+\]$/.test(segment)) return "/.+";
  if (/^\[.+\]$/.test(segment)) return "/[^/]+";
  return `/${escapeRegExp(segment)}`;
}

function isDynamic(segment: string): boolean {
  return segment.startsWith("[");
}

/** Every `route.ts` under `projectRoot`'s app/, with the path pattern of its folder and the handlers it exports. */
export function routeMethodsOf(projectRoot: string): RouteMethods[] {
  const found: { entry: RouteMethods; dynamicSegments: number }[] = [];
  const walk = (segments: string[]) => {
    const folder = path.join(projectRoot, "app", ...segments);
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk([...segments, entry.name]);
      else if (entry.name === "route.ts") {
        const source = readFileSync(path.join(folder, entry.name), "utf8");
        const methods = [...new Set([...source.matchAll(EXPORTED_HANDLER)].map((match) => match[1]!))].sort();
        found.push({
          entry: {
            route: ["app", ...segments, entry.name].join("/"),
            pattern: `^${segments.map(segmentPattern).join("")}/?$`,
            methods,
          },
          dynamicSegments: segments.filter(isDynamic).length,
        });
      }
    }
  };
  walk([]);
  // As Next.js routes: a static path wins over a dynamic one that would also match it.
  return found.sort((a, b) => a.dynamicSegments - b.dynamicSegments || a.entry.route.localeCompare(b.entry.route)).map((x) => x.entry);
}

/**
 * Replaces `file` whole (making its folder if need be): written beside it, then renamed over it. Every
 * start of the bundle writes the table and the guard again while other instances of the same bundle may
 * be starting and reading them (the failover suite starts three at once); a rename lets each reader see
 * the old file or the new one, never the empty or half-written file an in-place write shows for a moment.
 */
export function replaceFile(file: string, contents: string | Buffer): void {
  const staged = `${file}.${process.pid}.tmp`;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(staged, contents);
  renameSync(staged, file);
}

/** Writes the table derived from the route files into `bundleDir` (the standalone bundle has no sources). */
export function writeRouteTable(projectRoot: string, bundleDir: string): void {
  replaceFile(path.join(bundleDir, ROUTE_TABLE_FILE), `${JSON.stringify(routeMethodsOf(projectRoot), null, 2)}\n`);
}

/** The table in `root`: written at build time in a bundle, else derived from the route files there. */
export function readRouteTable(root: string): RouteMethods[] {
  const written = path.join(root, ROUTE_TABLE_FILE);
  if (existsSync(written)) return JSON.parse(readFileSync(written, "utf8")) as RouteMethods[];
  if (existsSync(path.join(root, "app"))) return routeMethodsOf(root);
  throw new Error(`No ${ROUTE_TABLE_FILE} and no app/ folder in ${root}: the method guard cannot know the routes.`);
}

const PAGE_METHODS: readonly string[] = ["GET", "HEAD"];

/** Whether Next.js can turn a request of `method` into a Fetch `Request` (TRACE, TRACK, CONNECT and others it cannot). */
export function isRepresentable(method: string): boolean {
  return HANDLER_METHODS.includes(method);
}

const patterns = new Map<string, RegExp>();
function compiled(pattern: string): RegExp {
  let regExp = patterns.get(pattern);
  if (!regExp) patterns.set(pattern, (regExp = new RegExp(pattern)));
  return regExp;
}

/** The methods a route answers, as an `Allow` header lists them: route handlers answer HEAD with GET and OPTIONS by themselves. */
function allowOf(methods: readonly string[]): readonly string[] {
  const allowed = new Set([...methods, "OPTIONS"]);
  if (allowed.has("GET")) allowed.add("HEAD");
  return [...allowed].sort();
}

interface CompiledRoute {
  regExp: RegExp;
  allow: readonly string[];
}

/**
 * Each table compiled once: not a RegExp lookup and a sort per request. In production the guard reads its
 * table once per process; in development it derives a new one per request, and `compiled` still spares
 * it the RegExps.
 */
const compiledTables = new WeakMap<readonly RouteMethods[], readonly CompiledRoute[]>();

function compiledTable(table: readonly RouteMethods[]): readonly CompiledRoute[] {
  let routes = compiledTables.get(table);
  if (!routes) {
    routes = table.map((entry) => ({ regExp: compiled(entry.pattern), allow: allowOf(entry.methods) }));
    compiledTables.set(table, routes);
  }
  return routes;
}

/**
 * The methods `pathname` answers, as an `Allow` header lists them, or null for a path that is no API
 * route (Next.js answers it 404).
 */
export function allowedMethods(pathname: string, table: readonly RouteMethods[]): readonly string[] | null {
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    return compiledTable(table).find((route) => route.regExp.test(pathname))?.allow ?? null;
  }
  return PAGE_METHODS;
}

/** What the server answers before Next.js sees the request: null to pass it on, else the refusal. */
export function refuseMethod(
  method: string,
  pathname: string,
  table: readonly RouteMethods[],
): { status: 405; allow: string } | { status: 404 } | null {
  const allowed = allowedMethods(pathname, table);
  // The methods Next.js can represent as a Fetch Request: for an unknown API path it answers 404 itself.
  if (allowed === null) return isRepresentable(method) ? null : { status: 404 };
  return allowed.includes(method) ? null : { status: 405, allow: allowed.join(", ") };
}
