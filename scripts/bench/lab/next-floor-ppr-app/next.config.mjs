/**
 * The floor app's Courses-shaped page built with Cache Components (lab section `nextFloor`): Next.js
 * prerenders its shell at build time and renders only the part that waits for the member's data on each
 * request (Partial Prerendering). The layout and the page are the floor app's own files. Partial
 * Prefetching is about link prefetches, which no side measures: off, as Cache Components shipped before it
 * (Next.js 16.5 asks for it to be set either way).
 */
/** @type {import('next').NextConfig} */
const nextConfig = { poweredByHeader: false, cacheComponents: true, partialPrefetching: false };

export default nextConfig;
