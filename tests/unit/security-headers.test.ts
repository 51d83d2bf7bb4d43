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

describe("round three: framing and the headers of every response", () => {
  it("names exactly the embedding origins in frame-ancestors, never 'self' (the dashboard never frames itself)", () => {
    expect(contentSecurityPolicy("n0nce", "/settings", false)).not.toContain("'self' https://school.example");
    expect(contentSecurityPolicy("n0nce", "/settings", false)).toMatch(/frame-ancestors https:\/\/school\.example(;|$)/);
  });

  it("leaves nosniff, HSTS and Referrer-Policy to next.config.mjs, for every path, static files included", async () => {
    const configPath: string = "../../next.config.mjs";
    const { default: nextConfig } = (await import(configPath)) as {
      default: { headers(): Promise<{ source: string; headers: { key: string; value: string }[] }[]>; images?: { unoptimized?: boolean } };
    };
    const rules = await nextConfig.headers();
    const everyPath = rules.find((rule) => rule.source === "/:path*");
    expect(Object.fromEntries(everyPath!.headers.map(({ key, value }) => [key, value]))).toMatchObject({
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "strict-transport-security": "max-age=31536000; includeSubDomains",
    });
    // One place: the page's own headers do not repeat them.
    expect(Object.keys(baseSecurityHeaders("/settings"))).not.toContain("x-content-type-options");
    // Finding 6: nothing uses next/image, so its optimizer is off.
    expect(nextConfig.images?.unoptimized).toBe(true);
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
