/**
 * The prerendered pages' inline-script hashes, written into the standalone bundle's own `.next/`
 * (scripts/static-page-hashes.ts, at build and at each start) and read by the proxy (lib/http/signed-out-page.ts):
 * `{ page path: ["sha256-<base64>", …] }`. Plain TypeScript that Node.js runs as it is.
 */
export const STATIC_PAGE_HASHES_FILE = "static-page-hashes.json";
