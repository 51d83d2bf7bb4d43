import { readFileSync } from "node:fs";

import semver from "semver";
import { describe, expect, it } from "vitest";

/**
 * Security checklist point 70: the registry's audit endpoint is not reachable from CI, so the installed
 * versions of the auth path are compared with the patched floors of the checklist's appendix here.
 */
const FLOORS: [pkg: string, floor: string, advisory: string][] = [
  [
    "next",
    "16.3.3",
    "GHSA-2xp9-vwfh-vxw4 (image optimizer AVIF remote code execution, fixed in the release of 25 August 2026); " +
      "GHSA-267c-6grr-h53f / GHSA-26hh-7cqf-hhc6 (matcher bypass), CVE-2026-44581 (CSP nonce reflection)",
  ],
  ["sharp", "0.35.4", "the image decoders next installs beside it: the release after the AVIF advisory (26 August 2026)"],
  ["jose", "5.2.3", "CVE-2024-28176 (JWE decompression bomb)"],
  ["cookie", "0.7.0", "CVE-2024-47764 (cookie name, path and domain characters), bundled by iron-session"],
  ["iron-session", "8.0.4", "bundles a patched cookie package"],
  ["oauth4webapi", "3.0.0", "the major version whose API this code uses"],
];

const FLOOR_OF: Record<string, string> = Object.fromEntries(FLOORS.map(([pkg, floor]) => [pkg, floor]));

function installedVersion(pkg: string): string {
  return (JSON.parse(readFileSync(`node_modules/${pkg}/package.json`, "utf8")) as { version: string }).version;
}

/** Semantic Versioning's order: a pre-release of the floor (`16.3.3-canary.2`) comes before it, so it may lack the fix. */
function atLeast(version: string, floor: string): boolean {
  return semver.gte(version, floor);
}

describe("dependency floors", () => {
  it.each(FLOORS)("%s is at least %s (%s)", (pkg, floor) => {
    expect(atLeast(installedVersion(pkg), floor), `${pkg} ${installedVersion(pkg)} < ${floor}`).toBe(true);
  });

  it("compares versions numerically, a pre-release below its release", () => {
    expect(atLeast("16.10.0", "16.2.11")).toBe(true);
    expect(atLeast("16.2.10", "16.2.11")).toBe(false);
    expect(atLeast("15.5.18", "16.2.11")).toBe(false);
    // The whole line the stale floor let through (16.2.11 to 16.3.2) is now refused.
    for (const stale of ["16.2.11", "16.2.12", "16.3.0", "16.3.2"]) expect(atLeast(stale, FLOOR_OF.next!)).toBe(false);
    expect(atLeast("0.35.3", FLOOR_OF.sharp!)).toBe(false);
    expect(atLeast("16.3.3-canary.2", FLOOR_OF.next!)).toBe(false);
    expect(atLeast("16.3.4-canary.0", FLOOR_OF.next!)).toBe(true);
  });
});
