import { EVERY_RESPONSE_HEADERS, NEVER_FRAMED_HEADERS } from "./lib/http/api-security-headers.ts";

/** @type {import('next').NextConfig} */
const nextConfig = {
  async headers() {
    return [
      // One place for the headers of every response, pages and static files included (OWASP ASVS 5 V3.4).
      { source: "/:path*", headers: [...EVERY_RESPONSE_HEADERS] },
      // Every API answer is personal or live: never framed, never stored by a cache.
      { source: "/api/:path*", headers: [...NEVER_FRAMED_HEADERS, { key: "cache-control", value: "no-store" }] },
      { source: "/_next/:path*", headers: [...NEVER_FRAMED_HEADERS] },
      { source: "/:file(favicon\\.ico|icon\\.svg|manifest\\.webmanifest)", headers: [...NEVER_FRAMED_HEADERS] },
    ];
  },
  // The deployable bundle: .next/standalone holds a server.js and only the node_modules it needs (README, Deploy).
  output: "standalone",
  // The bundle's root is this folder, whatever lockfiles sit above it: server.js lands in .next/standalone/.
  outputFileTracingRoot: import.meta.dirname,
  // The method guard (scripts/method-guard.ts, loaded before server.js) reads an RSC request's router state
  // with Next.js's own parser, which requires Next.js's compiled superstruct: named here rather than left to
  // the trace of Next.js's server, which leaves it out since Next.js 16.5 (every route: the guard serves them all).
  outputFileTracingIncludes: { "/**": ["./node_modules/next/dist/compiled/superstruct/**"] },
  // Nothing uses next/image: the optimizer (and its image decoders, GHSA-2xp9-vwfh-vxw4) is never reached.
  images: { unoptimized: true },
  // OWASP ASVS 5 V13.4.6: no answer names the framework behind it (no X-Powered-By).
  poweredByHeader: false,
  // `next dev` would otherwise write an AGENTS.md of its own into the checkout (16.4 when it detects a coding
  // agent, 16.5 on every start), and, with experimental.agentUpgrade, its upgrade instructions into it.
  agentRules: false,
  // Loaded by Node once per process, not bundled into each route: one metrics registry (lib/metrics/registry.ts).
  serverExternalPackages: ["prom-client"],
  reactStrictMode: true,
  // The build checks the app's own code; `npm test` type-checks everything (tests, sandbox, scripts) with tsconfig.json.
  typescript: { tsconfigPath: "tsconfig.next.json" },
  // A path no page has gets app/global-not-found.tsx, rendered on the server: with two root layouts there is
  // no app-wide layout for Next.js to render its not-found.js in.
  experimental: { globalNotFound: true, agentUpgrade: false },
};

export default nextConfig;
