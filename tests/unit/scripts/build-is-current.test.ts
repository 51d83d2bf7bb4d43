import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildIsCurrent } from "../../../scripts/standalone";

/** A project with one source file and a build whose BUILD_ID and server.js carry the given times (seconds). */
function project(root: string, times: { source: number; buildId?: number; server?: number }): void {
  const write = (relative: string, at: number) => {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "x");
    // A folder's own time counts too (a file removed from it is a change).
    for (const changed of [file, path.dirname(file)]) utimesSync(changed, at, at);
  };
  write("app/page.tsx", times.source);
  if (times.buildId !== undefined) write(".next/BUILD_ID", times.buildId);
  if (times.server !== undefined) write(".next/standalone/server.js", times.server);
}

describe("npm start's check that the build is current", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "build-is-current-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("keeps a whole build newer than every source", () => {
    project(root, { source: 1_000, buildId: 2_000, server: 2_001 });
    expect(buildIsCurrent(root)).toBe(true);
  });

  it("rebuilds when a source changed after the build", () => {
    project(root, { source: 3_000, buildId: 2_000, server: 2_001 });
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("rebuilds after a build that failed once it had written BUILD_ID: its server.js is the old one", () => {
    // The source changed at 2,000; the failed build wrote BUILD_ID at 3,000 and never got to server.js.
    project(root, { source: 2_000, buildId: 3_000, server: 1_000 });
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("builds when there is no build, or no standalone server", () => {
    project(root, { source: 1_000 });
    expect(buildIsCurrent(root)).toBe(false);
    project(root, { source: 1_000, buildId: 2_000 });
    expect(buildIsCurrent(root)).toBe(false);
  });
});
