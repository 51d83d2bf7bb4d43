/**
 * A CSP for a prerendered page without a nonce (lab section `nextFloor`, its /hashed-static page): each
 * inline script of the built HTML is allowed by the SHA-256 of its text (CSP Level 3, hash-source), and
 * the build's chunks by their folder on this origin (a host-source with a path), not by 'self': no other
 * script of the origin, no script of another origin, no 'unsafe-inline'.
 *
 * Why a folder and not hashes with 'strict-dynamic': React's Flight client writes the script tag of each
 * client component's chunk (react-server-dom-*: `prepareDestinationWithChunks`) with a nonce but never an
 * integrity attribute, so under a policy of hashes the browser refuses those tags and the page does not
 * hydrate (Chromium, 28 November, with `experimental.sri`: the link click stays a document navigation).
 */
import { inlineScriptHashes } from "../../static-page-hashes.ts";

export interface HashedPagePolicy {
  policy: string;
  inlineScripts: number;
}

/**
 * `html`: the page as built (`.next/server/app/<page>.html`); `origin`: the app's own (scheme, host and
 * port), where its chunks are served under `/_next/static/chunks/`. The hashes are the dashboard's own
 * build step's (scripts/static-page-hashes.ts).
 */
export function hashedPagePolicy(html: string, origin: string): HashedPagePolicy {
  const hashes = inlineScriptHashes(html);
  const policy = [
    "default-src 'self'",
    `script-src ${hashes.map((hash) => `'${hash}'`).join(" ")} ${origin}/_next/static/chunks/`,
    "style-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return { policy, inlineScripts: hashes.length };
}
