import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

/**
 * The README's first command on a fresh machine: `npm install` has to run the install scripts of `node`
 * (the Node 24 binary every npm script then uses) and of esbuild (tsx's compiler). npm 11 names each
 * dependency whose install script package.json's `allowScripts` does not cover, and its documentation
 * says such scripts are skipped: every package of the lockfile with an install script is approved there,
 * by name, and nothing else is (what `npm install-scripts prune` would remove).
 */
const lockfile = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};
const { allowScripts = {} } = JSON.parse(readFileSync("package.json", "utf8")) as { allowScripts?: Record<string, boolean> };

/** The package name of a lockfile path (`node_modules/a/node_modules/@b/c` is `@b/c`). */
function packageName(lockfilePath: string): string {
  return lockfilePath.slice(lockfilePath.lastIndexOf("node_modules/") + "node_modules/".length);
}

const withInstallScripts = [
  ...new Set(
    Object.entries(lockfile.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([lockfilePath]) => packageName(lockfilePath)),
  ),
].sort();

describe("install scripts", () => {
  it("the lockfile's packages with install scripts include node, whose script installs the Node 24 binary", () => {
    expect(withInstallScripts).toContain("node");
  });

  it.each(withInstallScripts)("%s's install script is approved in package.json's allowScripts", (name) => {
    expect(allowScripts[name]).toBe(true);
  });

  it("allowScripts approves no package that has no install script", () => {
    expect(Object.keys(allowScripts).sort()).toEqual(withInstallScripts);
  });
});
