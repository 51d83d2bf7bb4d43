import { spawnSync } from "node:child_process";
import path from "node:path";

import { describe, expect, it } from "vitest";

const rulesFolder = path.resolve(import.meta.dirname, "..", "..", "deploy", "prometheus");

function promtool(...args: string[]) {
  return spawnSync("promtool", args, { cwd: rulesFolder, encoding: "utf8", timeout: 60_000 });
}

describe("deploy/prometheus/alerts.yml, with Debian's promtool", () => {
  it("is a valid rules file with every alert the operator guide names", () => {
    const result = promtool("check", "rules", "alerts.yml");
    expect(result.stdout + result.stderr).toContain("SUCCESS: 7 rules found");
    expect(result.status).toBe(0);
  });

  it("fires as its unit tests say (alerts.test.yml): no sign-in while members' requests arrive, failure ratio, shared state", () => {
    const result = promtool("test", "rules", "alerts.test.yml");
    expect(result.stdout + result.stderr).toContain("SUCCESS");
    expect(result.status).toBe(0);
  });
});
