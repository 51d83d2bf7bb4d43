/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // The dashboard never derives URLs from Host or X-Forwarded-* headers (DESIGN.md section 3);
  // every absolute URL comes from APP_URL and SITE_URL in lib/config.
  serverExternalPackages: [],
};

export default nextConfig;
