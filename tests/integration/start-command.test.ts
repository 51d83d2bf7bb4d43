import { spawnSync } from "node:child_process";
import path from "node:path";

import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");

it("the run command refuses bad configuration with one message naming every bad variable, before building anything", () => {
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/start.ts"], {
    cwd: root,
    env: { ...process.env, SITE_URL: "http://school.example.com", OAUTH_CLIENT_ID: "", OAUTH_CLIENT_SECRET: "", SESSION_SECRET: "short", PORT: "3999" },
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("Invalid configuration:");
  for (const variable of ["SITE_URL", "OAUTH_CLIENT_ID", "OAUTH_CLIENT_SECRET", "SESSION_SECRET"]) expect(result.stderr).toContain(`- ${variable}`);
  expect(result.stdout).not.toContain("Building");
});
