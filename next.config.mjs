/**
 * What Next.js adds to every answer of the BFF's API routes (OWASP ASVS 5 V3.4): JSON never framed, sniffed
 * or cached. Pages get theirs, with a per-request CSP nonce, from proxy.ts (the API routes skip the proxy).
 */
const API_HEADERS = [
  { key: "content-security-policy", value: "default-src 'none'; frame-ancestors 'none'" },
  { key: "x-frame-options", value: "DENY" },
  { key: "x-content-type-options", value: "nosniff" },
  { key: "referrer-policy", value: "no-referrer" },
  // Ignored by browsers over plain http (RFC 6797 section 8.1), so it is safe on the local demo too.
  { key: "strict-transport-security", value: "max-age=31536000; includeSubDomains" },
  // Every API answer is personal or live: never stored by a cache.
  { key: "cache-control", value: "no-store" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  async headers() {
    return [{ source: "/api/:path*", headers: API_HEADERS }];
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
