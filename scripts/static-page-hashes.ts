/**
 * The last step of `npm run build` (with the route table): the SHA-256 of each inline script of every
 * prerendered copy of the signed-out page, as the proxy's CSP lists them for that copy
 * (lib/http/security-headers.ts `prerenderedPagePolicy`; CSP Level 3 hash-source), written beside the
 * server's own files in the standalone bundle's `.next/`. Plain Node.js.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { Window } from "happy-dom";

import { replaceFile } from "../lib/http/method-policy.ts";
import { STATIC_PAGE_HASHES_FILE } from "../lib/http/static-page-hashes-file.ts";

/** The hash-source of each inline script of `html` (its text as written, UTF-8), in document order, without repeats. */
export function inlineScriptHashes(html: string): string[] {
  const window = new Window();
  try {
    const document = new window.DOMParser().parseFromString(html, "text/html");
    // A style element would need a nonce or a hash of its own: the policy allows none.
    if (document.querySelector("style")) throw new Error("the page has an inline style element, which its policy does not allow");
    const scripts = [...document.querySelectorAll("script")].filter((script) => script.getAttribute("src") === null);
    return [...new Set(scripts.map((script) => `sha256-${createHash("sha256").update(script.textContent, "utf8").digest("base64")}`))];
  } finally {
    void window.happyDOM.close();
  }
}

/** Every `.html` file under `folder`, by its page path (`<base>/<relative path without .html>`). */
function prerenderedPages(folder: string, base: string): Map<string, string> {
  const pages = new Map<string, string>();
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".html")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(folder, file).slice(0, -".html".length).split(path.sep).join("/");
    pages.set(`${base}/${relative}`, file);
  }
  return pages;
}

/** `{ page path: [hash-source, …] }` for the signed-out page's copies that `next build` wrote under `nextDir`. */
export function staticPageHashes(nextDir: string): Record<string, string[]> {
  const hashes: Record<string, string[]> = {};
  for (const [page, file] of prerenderedPages(path.join(nextDir, "server", "app", "signed-out"), "/signed-out")) {
    hashes[page] = inlineScriptHashes(readFileSync(file, "utf8"));
  }
  return hashes;
}

/** Writes the hashes of the copies `next build` left in `nextDir` into the bundle at `bundleDir`, where its server reads them. */
export function writeStaticPageHashes(nextDir: string, bundleDir: string): void {
  replaceFile(path.join(bundleDir, ".next", STATIC_PAGE_HASHES_FILE), `${JSON.stringify(staticPageHashes(nextDir), null, 2)}\n`);
}
