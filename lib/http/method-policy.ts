/**
 * Which HTTP methods each path of the dashboard answers. Next.js builds a Fetch `Request` for every
 * request, and the Fetch standard forbids TRACE, TRACK and CONNECT: Next.js then throws and answers
 * 500, for pages and API routes alike. It also renders a page for DELETE or PROPFIND. The production
 * server (scripts/method-guard.ts, loaded before Next.js's standalone server) asks this table first and
 * answers anything else 405 with `Allow` (RFC 9110 sections 9.1 and 15.5.6; OWASP ASVS 5 V13.4, unused HTTP
 * methods refused).
 */

/** Methods of the API routes, by path pattern. tests/unit/method-policy.test.ts keeps it equal to the route files' exports. */
export const API_ROUTE_METHODS: readonly { pattern: RegExp; route: string; methods: readonly string[] }[] = [
  { route: "app/api/account/[resource]/route.ts", pattern: /^\/api\/account\/(?!connections\/?$)[^/]+\/?$/, methods: ["GET"] },
  { route: "app/api/account/connections/route.ts", pattern: /^\/api\/account\/connections\/?$/, methods: ["GET"] },
  { route: "app/api/auth/callback/route.ts", pattern: /^\/api\/auth\/callback\/?$/, methods: ["GET"] },
  { route: "app/api/auth/embedded/route.ts", pattern: /^\/api\/auth\/embedded\/?$/, methods: ["POST"] },
  { route: "app/api/auth/login/route.ts", pattern: /^\/api\/auth\/login\/?$/, methods: ["GET"] },
  { route: "app/api/auth/logout/route.ts", pattern: /^\/api\/auth\/logout\/?$/, methods: ["POST"] },
  { route: "app/api/auth/revoke/route.ts", pattern: /^\/api\/auth\/revoke\/?$/, methods: ["POST"] },
  { route: "app/api/health/route.ts", pattern: /^\/api\/health\/?$/, methods: ["GET"] },
  { route: "app/api/metrics/route.ts", pattern: /^\/api\/metrics\/?$/, methods: ["GET"] },
  { route: "app/api/ready/route.ts", pattern: /^\/api\/ready\/?$/, methods: ["GET"] },
  { route: "app/api/session/route.ts", pattern: /^\/api\/session\/?$/, methods: ["GET"] },
];

const PAGE_METHODS = ["GET", "HEAD"];

/**
 * The methods `pathname` answers, as an `Allow` header lists them, or null for a path that is no API
 * route (Next.js answers it 404). Route handlers answer HEAD with GET and OPTIONS by themselves.
 */
export function allowedMethods(pathname: string): string[] | null {
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    const route = API_ROUTE_METHODS.find((entry) => entry.pattern.test(pathname));
    if (!route) return null;
    const methods = new Set([...route.methods, "OPTIONS"]);
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  }
  return PAGE_METHODS;
}

/** What the server answers before Next.js sees the request: null to pass it on, else the refusal. */
export function refuseMethod(method: string, pathname: string): { status: 405; allow: string } | { status: 404 } | null {
  const allowed = allowedMethods(pathname);
  if (allowed === null) return NEXT_METHODS.includes(method) ? null : { status: 404 };
  return allowed.includes(method) ? null : { status: 405, allow: allowed.join(", ") };
}

/** The methods Next.js can represent as a Fetch Request: for an unknown API path it answers 404 itself. */
const NEXT_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];
