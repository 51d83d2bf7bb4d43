import { describe, expect, it } from "vitest";

import { hashedPagePolicy } from "../../../scripts/bench/lab/hashed-csp";

/** The hash-source a browser computes for an inline script: SHA-256 of its text as UTF-8 (CSP Level 3, section 8.4). */
async function hashSource(scriptText: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(scriptText));
  return `'sha256-${Buffer.from(digest).toString("base64")}'`;
}

const scriptSources = (policy: string) =>
  policy
    .split("; ")
    .find((directive) => directive.startsWith("script-src "))!
    .split(" ")
    .slice(1);

describe("hashedPagePolicy (the lab's CSP of hashes for a prerendered page)", () => {
  // Script text is raw: `&amp;` stays five characters, and non-ASCII is hashed as UTF-8.
  const bootstrap = "(self.__next_f=self.__next_f||[]).push([0])";
  const payload = 'self.__next_f.push([1,"a &amp; b < c, 課程"])';
  const html = [
    "<!DOCTYPE html><html><head>",
    '<script src="/_next/static/chunks/main.js" async="" integrity="sha256-AAAA"></script>',
    '<script src="/_next/static/chunks/layout.js" async=""></script>',
    `</head><body><p>Signed out</p><script>${bootstrap}</script><script>${payload}</script>`,
    `<script>${bootstrap}</script></body></html>`,
  ].join("");

  it("allows each inline script by the hash of its raw text, once, and the chunks by their folder only", async () => {
    const result = hashedPagePolicy(html, "https://dashboard.example");
    expect(scriptSources(result.policy)).toEqual([
      await hashSource(bootstrap),
      await hashSource(payload),
      "https://dashboard.example/_next/static/chunks/",
    ]);
    expect(result.inlineScripts).toBe(2);
  });

  it("keeps everything else of the page's policy strict: no inline code, no plugins, no base, no framing", () => {
    const { policy } = hashedPagePolicy(html, "https://dashboard.example");
    expect(policy).not.toMatch(/'unsafe-inline'|'unsafe-eval'|'strict-dynamic'/);
    expect(scriptSources(policy)).not.toContain("'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
  });
});
