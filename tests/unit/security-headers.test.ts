import { beforeAll, describe, expect, it } from "vitest";

import { resetConfigForTests } from "@/lib/config";
import { baseSecurityHeaders, contentSecurityPolicy, isNeverFramable, prerenderedPagePolicy } from "@/lib/http/security-headers";

import { configureDashboard } from "../support/env";

beforeAll(() => {
  configureDashboard("http://127.0.0.1:9", { EMBED_ORIGINS: "https://school.example" });
  resetConfigForTests();
});

describe("framing policy by path", () => {
  it.each([
    "/settings/revoke",
    "/settings/revoke/",
    "/settings/%72evoke",
    "/settings/%2572evoke",
    "/settings%2Frevoke",
    "//settings//revoke",
    "/settings/./revoke",
    "/settings/%2e/revoke",
    "/Settings/Revoke",
    "/auth/popup-done/",
    "/auth/%70opup-done",
    "/sign-in-problem/",
    "/sign-%69n-problem",
  ])("never frames %s", (pathname) => {
    expect(isNeverFramable(pathname)).toBe(true);
    expect(contentSecurityPolicy("n0nce", pathname, false)).toContain("frame-ancestors 'none'");
    expect(baseSecurityHeaders(pathname)["x-frame-options"]).toBe("DENY");
  });

  it.each(["/", "/settings", "/courses", "/settings/revoke-other", "/settings/%7"])("lets the embedding site frame %s", (pathname) => {
    expect(isNeverFramable(pathname)).toBe(false);
    expect(contentSecurityPolicy("n0nce", pathname, false)).toMatch(/frame-ancestors https:\/\/school\.example(;|$)/);
  });
});

describe("Cross-Origin-Opener-Policy", () => {
  it.each(["/", "/settings", "/courses", "/signed-out"])("isolates %s from other windows", (pathname) => {
    expect(baseSecurityHeaders(pathname)["cross-origin-opener-policy"]).toBe("same-origin-allow-popups");
  });

  it.each(["/auth/popup-done", "/settings/revoke", "/sign-in-problem", "/sign-%69n-problem/"])(
    "keeps the opener of the embedded panel's popup on %s (its sign-in may stop there and resume)",
    (pathname) => {
      expect(baseSecurityHeaders(pathname)).not.toHaveProperty("cross-origin-opener-policy");
    },
  );
});

/** The policy as a browser reads it: each directive's name and its sources, in order; a directive named twice fails. */
function directivesOf(policy: string): Record<string, string[]> {
  const entries = policy.split(";").map((entry) => entry.trim().split(/\s+/));
  const names = entries.map(([name]) => name!);
  expect(new Set(names).size, policy).toBe(names.length);
  return Object.fromEntries(entries.map(([name, ...sources]) => [name!, sources]));
}

describe("the Content-Security-Policy of a page rendered per request", () => {
  /** Everything but scripts and style elements, shared with the prerendered page's policy. */
  const everyOtherDirective = {
    // Nothing from another origin unless named below.
    "default-src": ["'self'"],
    // Inline style attributes only (progress bars' widths).
    "style-src-attr": ["'unsafe-inline'"],
    // The site's course covers.
    "img-src": ["'self'", "data:", "blob:", "http://127.0.0.1:9"],
    "font-src": ["'self'"],
    // The browser's data requests go to the dashboard's own API only: an injected script cannot send data elsewhere.
    "connect-src": ["'self'"],
    // No plugins, no <base> that would move every relative URL, no form posting elsewhere.
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["https://school.example"],
  };

  it("names every directive and exactly its sources", () => {
    expect(directivesOf(contentSecurityPolicy("n0nce", "/settings", false))).toEqual({
      // Only scripts with this request's nonce, and what they load ('strict-dynamic': no host list to bypass).
      "script-src": ["'self'", "'nonce-n0nce'", "'strict-dynamic'"],
      "style-src-elem": ["'self'", "'nonce-n0nce'"],
      ...everyOtherDirective,
    });
    expect(directivesOf(prerenderedPagePolicy(["sha256-AAAA"], "/signed-out"))).toEqual({
      "script-src": ["'sha256-AAAA'", "http://localhost:3999/_next/static/chunks/"],
      "style-src-elem": ["'self'"],
      ...everyOtherDirective,
    });
  });

  it("allows eval and inline scripts or styles only in development (Next.js's dev tooling), never in production", () => {
    const production = directivesOf(contentSecurityPolicy("n0nce", "/courses", false));
    expect(production["script-src"]).not.toContain("'unsafe-eval'");
    expect(production["script-src"]).not.toContain("'unsafe-inline'");
    expect(production["style-src-elem"]).not.toContain("'unsafe-inline'");
    const development = directivesOf(contentSecurityPolicy("n0nce", "/courses", true));
    expect(development["script-src"]).toEqual(["'self'", "'nonce-n0nce'", "'strict-dynamic'", "'unsafe-eval'"]);
    expect(development["style-src-elem"]).toEqual(["'self'", "'nonce-n0nce'", "'unsafe-inline'"]);
  });

  it("shows images from the origins SITE_IMAGE_ORIGINS lists (the site's image CDN) beside the site's own, and from no other", () => {
    try {
      process.env.SITE_IMAGE_ORIGINS = "https://cdn.school.example, https://images.school.example:8443/";
      resetConfigForTests();
      const imageSources = [
        "'self'",
        "data:",
        "blob:",
        "http://127.0.0.1:9",
        "https://cdn.school.example",
        "https://images.school.example:8443",
      ];
      expect(directivesOf(contentSecurityPolicy("n0nce", "/courses", false))["img-src"]).toEqual(imageSources);
      expect(directivesOf(prerenderedPagePolicy(["sha256-AAAA"], "/signed-out"))["img-src"]).toEqual(imageSources);
      // Only images: scripts, styles, fonts and the browser's requests stay on their own origins.
      const policy = contentSecurityPolicy("n0nce", "/courses", false);
      expect(policy.match(/cdn\.school\.example/g)).toHaveLength(1);
    } finally {
      delete process.env.SITE_IMAGE_ORIGINS;
      resetConfigForTests();
    }
  });

  it("upgrades insecure requests when the dashboard is served over https, and only then", () => {
    expect(directivesOf(contentSecurityPolicy("n0nce", "/courses", false))).not.toHaveProperty("upgrade-insecure-requests");
    const appUrl = process.env.APP_URL;
    try {
      process.env.APP_URL = "https://dashboard.example";
      resetConfigForTests();
      // A stray http:// subresource is fetched over https instead of being sent in clear (the cookies are Secure).
      expect(directivesOf(contentSecurityPolicy("n0nce", "/courses", false))).toHaveProperty("upgrade-insecure-requests", []);
      expect(directivesOf(prerenderedPagePolicy(undefined, "/signed-out"))).toHaveProperty("upgrade-insecure-requests", []);
    } finally {
      process.env.APP_URL = appUrl;
      resetConfigForTests();
    }
  });
});

describe("round three: framing and the headers of every response", () => {
  it("names exactly the embedding origins in frame-ancestors, never 'self' (the dashboard never frames itself)", () => {
    expect(contentSecurityPolicy("n0nce", "/settings", false)).not.toContain("'self' https://school.example");
    expect(contentSecurityPolicy("n0nce", "/settings", false)).toMatch(/frame-ancestors https:\/\/school\.example(;|$)/);
  });

  /** next.config.mjs, whose `headers()` rules Next.js applies to every response whose path matches their source. */
  async function nextConfigOf() {
    const configPath: string = "../../next.config.mjs";
    const { default: nextConfig } = (await import(configPath)) as {
      default: {
        headers(): Promise<{ source: string; headers: { key: string; value: string }[] }[]>;
        images?: { unoptimized?: boolean };
        poweredByHeader?: boolean;
      };
    };
    const rules = await nextConfig.headers();
    const headersFor = (source: string) => {
      const rule = rules.find((candidate) => candidate.source === source);
      expect(rule, source).toBeDefined();
      return Object.fromEntries(rule!.headers.map(({ key, value }) => [key, value]));
    };
    return { nextConfig, headersFor };
  }

  it("names no framework in any answer: Next.js's X-Powered-By is off (OWASP ASVS 5 V13.4.6)", async () => {
    const { nextConfig } = await nextConfigOf();
    expect(nextConfig.poweredByHeader).toBe(false);
  });

  it("leaves nosniff, HSTS, Referrer-Policy and Permissions-Policy to next.config.mjs, for every path, static files included", async () => {
    const { nextConfig, headersFor } = await nextConfigOf();
    expect(headersFor("/:path*")).toMatchObject({
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "strict-transport-security": "max-age=31536000; includeSubDomains",
      // No page asks for these: a framed or injected page cannot either.
      "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
    });
    // One place: the page's own headers do not repeat them.
    expect(Object.keys(baseSecurityHeaders("/settings"))).not.toContain("x-content-type-options");
    // Finding 6: nothing uses next/image, so its optimizer is off.
    expect(nextConfig.images?.unoptimized).toBe(true);
  });

  it("never lets API answers, the build's files, the icons or the manifest be framed, and never caches an API answer", async () => {
    const { headersFor } = await nextConfigOf();
    // The proxy gives pages their CSP; these paths get none from it, so a static one forbids framing them
    // (RFC 9700 section 4.16), with X-Frame-Options for browsers without frame-ancestors.
    const neverFramed = { "content-security-policy": "default-src 'none'; frame-ancestors 'none'", "x-frame-options": "DENY" };
    for (const source of ["/api/:path*", "/_next/:path*", "/:file(favicon\\.ico|icon\\.svg|manifest\\.webmanifest)"]) {
      expect(headersFor(source), source).toMatchObject(neverFramed);
    }
    // Every API answer is personal or live: no browser or shared cache keeps it.
    expect(headersFor("/api/:path*")).toMatchObject({ "cache-control": "no-store" });
  });
});

describe("the prerendered signed-out page's policy", () => {
  const directive = (policy: string, name: string) => policy.split("; ").find((entry) => entry.startsWith(`${name} `));
  const hashes = ["sha256-1NqtA5VXuI9yUSUYitM8QsiGIoTwEyjMXESiezYaVeY=", "sha256-OBTN3RiyCV4Bq7dFqZ5a2pAXjnCcCYeTJMO2I/LYKeo="];

  it("allows its inline scripts by their hashes and the build's chunks by their folder, nothing else of any origin", () => {
    const policy = prerenderedPagePolicy(hashes, "/signed-out");
    expect(directive(policy, "script-src")).toBe(`script-src '${hashes[0]}' '${hashes[1]}' http://localhost:3999/_next/static/chunks/`);
    expect(policy).not.toMatch(/'unsafe-eval'|'strict-dynamic'|'nonce-/);
    expect(directive(policy, "style-src-elem")).toBe("style-src-elem 'self'");
  });

  it("runs no script at all when the build wrote no hashes for the page", () => {
    expect(directive(prerenderedPagePolicy(undefined, "/signed-out"), "script-src")).toBe("script-src 'none'");
  });

  it("keeps every other directive of the pages rendered per request, framing included", () => {
    const withoutScripts = (policy: string) => policy.split("; ").filter((entry) => !/^(script-src|style-src-elem) /.test(entry));
    expect(withoutScripts(prerenderedPagePolicy(hashes, "/signed-out"))).toEqual(
      withoutScripts(contentSecurityPolicy("n0nce", "/signed-out", false)),
    );
    expect(directive(prerenderedPagePolicy(hashes, "/signed-out"), "frame-ancestors")).toBe("frame-ancestors https://school.example");
  });
});
