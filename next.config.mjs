import { API_SECURITY_HEADERS } from "./lib/http/api-security-headers.ts";

/** @type {import('next').NextConfig} */
const nextConfig = {
  async headers() {
    return [
      { source: "/api/:path*", headers: [...API_SECURITY_HEADERS] },
      // The account routes set Cache-Control themselves (a header set here would win over theirs): always
      // no-store, and no-transform on answers too small to gain from compression (lib/http/member-json.ts).
      { source: "/api/:path((?!account/).*)", headers: [{ key: "cache-control", value: "no-store" }] },
    ];
  },
  // The deployable bundle: .next/standalone holds a server.js and only the node_modules it needs (README, Deploy).
  output: "standalone",
  // The bundle's root is this folder, whatever lockfiles sit above it: server.js lands in .next/standalone/.
  outputFileTracingRoot: import.meta.dirname,
  poweredByHeader: false,
  // Loaded by Node once per process, not bundled into each route: one metrics registry (lib/metrics/registry.ts).
  serverExternalPackages: ["prom-client"],
  reactStrictMode: true,
  // The build checks the app's own code; `npm test` type-checks everything (tests, sandbox, scripts) with tsconfig.json.
  typescript: { tsconfigPath: "tsconfig.next.json" },
};

export default nextConfig;
