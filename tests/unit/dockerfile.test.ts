import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { METHOD_GUARD_FILES, METHOD_GUARD } from "@/scripts/standalone";

const dockerfile = readFileSync("Dockerfile", "utf8");
/** The runtime stage's `COPY --from=build <from> <to>` lines. */
const copies = [...dockerfile.matchAll(/^COPY --from=build \/app\/(\S+) (\S+)$/gm)].map((match) => ({ from: match[1]!, to: match[2]! }));
const packageJson = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };

/**
 * The Dockerfile is not built on these machines (no Docker daemon): this keeps its file list tied to what
 * the standalone bundle needs beside server.js (scripts/standalone.ts), which the start-command test runs.
 */
describe("the Dockerfile", () => {
  it("copies the standalone bundle, its static assets and public/ as the README's Deploy section does", () => {
    expect(copies).toEqual(
      expect.arrayContaining([
        { from: ".next/standalone", to: "./" },
        { from: ".next/static", to: "./.next/static" },
        { from: "public", to: "./public" },
      ]),
    );
  });

  it("copies every file of the method guard, to the same place in the bundle", () => {
    for (const file of METHOD_GUARD_FILES) expect(copies, file).toContainEqual({ from: file, to: `./${file}` });
  });

  it("copies the files of the method guard that the README's Deploy section copies by hand", () => {
    const deploySteps = /^## Deploy$([^]*?)^## /m.exec(readFileSync("README.md", "utf8"))?.[1] ?? "";
    const copiedByHand = [...deploySteps.matchAll(/\bcp (\S+) \/srv\/dashboard\/(\S*)/g)].map(([, from, to]) => ({ from, to }));
    for (const file of METHOD_GUARD_FILES) {
      expect(copiedByHand, file).toContainEqual({ from: file, to: `${path.dirname(file)}/` });
      expect(deploySteps, file).toMatch(new RegExp(`^mkdir -p .*/srv/dashboard/${path.dirname(file)}(\\s|$)`, "m"));
    }
  });

  it("builds with npm run build, which writes the guard's route table and the prerendered pages' script hashes into the bundle", () => {
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(packageJson.scripts.build).toBe("next build && node scripts/write-route-table.ts && node scripts/write-static-page-hashes.ts");
    expect(readFileSync("scripts/write-route-table.ts", "utf8")).toContain('projectRoot(".next", "standalone")');
    expect(readFileSync("scripts/write-static-page-hashes.ts", "utf8")).toContain(
      'writeStaticPageHashes(projectRoot(".next"), projectRoot(".next", "standalone"))',
    );
  });

  it("starts server.js with the method guard loaded first", () => {
    expect(dockerfile).toContain(`CMD ["node", "--import", "${METHOD_GUARD}", "server.js"]`);
  });
});
