import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { inlineScriptHashes, staticPageHashes } from "../../../scripts/static-page-hashes";

/** The hash a browser computes for an inline script: SHA-256 of its text as UTF-8 (CSP Level 3, section 8.4). */
async function browserHash(scriptText: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(scriptText));
  return `sha256-${Buffer.from(digest).toString("base64")}`;
}

// Script text is raw: `&amp;` stays five characters, and non-ASCII is hashed as UTF-8.
const bootstrap = "(self.__next_f=self.__next_f||[]).push([0])";
const payload = 'self.__next_f.push([1,"a &amp; b < c, 課程"])';
const page = (body: string) =>
  `<!DOCTYPE html><html><head><script src="/_next/static/chunks/main.js" async=""></script></head><body>${body}</body></html>`;

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

describe("the build's hashes of the prerendered pages' inline scripts", () => {
  it("hashes each inline script's raw text once, as the browser does, and never a script with a src", async () => {
    const html = page(`<p>Signed out</p><script>${bootstrap}</script><script>${payload}</script><script>${bootstrap}</script>`);
    expect(inlineScriptHashes(html)).toEqual([await browserHash(bootstrap), await browserHash(payload)]);
  });

  it("refuses a page with an inline style element, which the page's policy would block", () => {
    expect(() => inlineScriptHashes("<html><head><style>p{}</style></head><body></body></html>")).toThrow(/inline style/);
  });

  it("writes every copy of the signed-out page under its page path, and nothing else", async () => {
    folder = mkdtempSync(path.join(tmpdir(), "static-page-hashes-"));
    const copies = path.join(folder, "server", "app", "signed-out", "en", "page", "expired");
    mkdirSync(copies, { recursive: true });
    writeFileSync(path.join(copies, "none.html"), page(`<script>${bootstrap}</script>`));
    writeFileSync(path.join(copies, "none.rsc"), "not a page");
    writeFileSync(path.join(folder, "server", "app", "_not-found.html"), page(`<script>${payload}</script>`));
    expect(staticPageHashes(folder)).toEqual({ "/signed-out/en/page/expired/none": [await browserHash(bootstrap)] });
  });
});
