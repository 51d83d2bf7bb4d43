/**
 * The smallest Next.js app on this project's Next.js, React and Node (lab section `nextFloor`,
 * scripts/bench/lab/next-floor.ts): what Next.js itself costs per page view, beside the dashboard's pages.
 * Next.js, React and React DOM resolve from the repository's node_modules (the workspace root Next.js
 * finds by the repository's lockfile): the dashboard's own copies.
 */
/** @type {import('next').NextConfig} */
const nextConfig = { poweredByHeader: false };

export default nextConfig;
