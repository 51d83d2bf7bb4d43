/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // The dashboard never derives URLs from Host or X-Forwarded-* headers (DESIGN.md section 3);
  // every absolute URL comes from APP_URL and SITE_URL in lib/config.
  serverExternalPackages: [],
  // The build checks the app's own code; `npm test` type-checks everything (tests, sandbox, scripts) with tsconfig.json.
  typescript: { tsconfigPath: "tsconfig.next.json" },
};

export default nextConfig;
