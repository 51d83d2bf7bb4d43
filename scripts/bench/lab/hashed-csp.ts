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
import { createHash } from "node:crypto";

import { Window } from "happy-dom";

export interface HashedPagePolicy {
  policy: string;
  inlineScripts: number;
}

/**
 * `html`: the page as built (`.next/server/app/<page>.html`); `origin`: the app's own (scheme, host and
 * port), where its chunks are served under `/_next/static/chunks/`.
 */
export function hashedPagePolicy(html: string, origin: string): HashedPagePolicy {
  const window = new Window();
  try {
    const document = new window.DOMParser().parseFromString(html, "text/html");
    const sources = new Set<string>();
    const inlineScripts = [...document.querySelectorAll("script")].filter((script) => script.getAttribute("src") === null);
    for (const script of inlineScripts) sources.add(`'sha256-${createHash("sha256").update(script.textContent, "utf8").digest("base64")}'`);
    if (document.querySelector("style")) throw new Error("the page has an inline style element, which this policy does not allow");
    const policy = [
      "default-src 'self'",
      `script-src ${[...sources].join(" ")} ${origin}/_next/static/chunks/`,
      "style-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join("; ");
    return { policy, inlineScripts: inlineScripts.length };
  } finally {
    void window.happyDOM.close();
  }
}
