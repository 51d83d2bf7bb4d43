import { spawnSync } from "node:child_process";
import path from "node:path";

import { describe, expect, it } from "vitest";

import {
  ensurePrerequisites,
  findProgram,
  planPrerequisites,
  TEST_PREREQUISITES,
  type CommandRunner,
  type Machine,
} from "../../../scripts/test-prerequisites";

const root = path.resolve(import.meta.dirname, "..", "..", "..");

/** A simulated machine: `installed` programs in /usr/bin and files, apt-get in /usr/bin when `apt` says so. */
function machine(options: { installed: string[]; uid?: number; debian?: boolean; apt?: boolean }): Machine & { installed: Set<string> } {
  const installed = new Set(options.installed);
  if (options.apt ?? true) installed.add("apt-get");
  return {
    installed,
    uid: options.uid ?? 0,
    pathVariable: ["/usr/local/bin", "/usr/bin"].join(path.delimiter),
    isExecutable: (file) => path.dirname(file) === "/usr/bin" && installed.has(path.basename(file)),
    isReadable: (file) => installed.has(file),
    isDebian: options.debian ?? true,
  };
}

const everything = TEST_PREREQUISITES.map((prerequisite) => prerequisite.file ?? prerequisite.program);
const CJK_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";

describe("the test command's prerequisites", () => {
  it("names every program the suites start, with the Debian packages that install them", () => {
    expect(everything).toEqual(
      expect.arrayContaining(["chromium", "firefox-esr", "redis-server", "redis-sentinel", "prometheus", "promtool", "openssl", "script"]),
    );
    expect(TEST_PREREQUISITES.find((prerequisite) => prerequisite.program === "chromium")?.packages).toEqual([
      "chromium",
      "fonts-noto-cjk",
    ]);
  });

  it("installs the CJK font where Chromium is there without it", () => {
    const plan = planPrerequisites(machine({ installed: everything.filter((installed) => installed !== CJK_FONT) }));
    expect(plan).toMatchObject({ action: "install", packages: ["fonts-noto-cjk"] });
    const notRoot = planPrerequisites(machine({ installed: everything.filter((installed) => installed !== CJK_FONT), uid: 1000 }));
    expect(notRoot.action === "stop" && notRoot.message).toContain(
      "  - a CJK font (Noto Sans CJK): sudo apt-get install -y fonts-noto-cjk",
    );
  });

  it("finds a program on PATH only", () => {
    const simulated = machine({ installed: ["redis-server"] });
    expect(findProgram("redis-server", simulated)).toBe("/usr/bin/redis-server");
    expect(findProgram("chromium", simulated)).toBeUndefined();
    expect(findProgram("redis-server", { ...simulated, pathVariable: "/usr/local/bin" })).toBeUndefined();
  });

  it("does nothing when every program is there", () => {
    expect(planPrerequisites(machine({ installed: everything, uid: 1000, debian: false, apt: false }))).toEqual({ action: "none" });
  });

  it("installs what is missing as root on Debian, once per package", () => {
    const plan = planPrerequisites(
      machine({ installed: everything.filter((program) => !["chromium", "prometheus", "promtool"].includes(program)) }),
    );
    expect(plan).toMatchObject({ action: "install", packages: ["chromium", "fonts-noto-cjk", "prometheus"] });
  });

  it("stops, naming each missing program and its install command, when not root", () => {
    const plan = planPrerequisites(
      machine({ installed: everything.filter((program) => program !== "redis-sentinel" && program !== "firefox-esr"), uid: 1000 }),
    );
    expect(plan.action).toBe("stop");
    const message = plan.action === "stop" ? plan.message : "";
    expect(message).toContain("  - firefox-esr: sudo apt-get install -y firefox-esr");
    expect(message).toContain("  - redis-sentinel: sudo apt-get install -y redis-sentinel");
    expect(message).toContain("only when run as root");
    expect(message).toContain("sudo apt-get update && sudo apt-get install -y firefox-esr redis-sentinel");
    expect(message).not.toContain("redis-server:");
  });

  it("stops when the machine is not Debian or has no apt-get, even as root", () => {
    for (const simulated of [machine({ installed: ["openssl"], debian: false }), machine({ installed: ["openssl"], apt: false })]) {
      const plan = planPrerequisites(simulated);
      expect(plan.action).toBe("stop");
      expect(plan.action === "stop" && plan.message).toContain("not a Debian machine with apt-get");
      expect(plan.action === "stop" && plan.message).toContain("  - chromium: apt-get install -y chromium fonts-noto-cjk");
    }
  });

  it("runs apt-get update, then apt-get install, non-interactively, and checks again", () => {
    const simulated = machine({ installed: everything.filter((program) => program !== "openssl") });
    const calls: string[] = [];
    const run: CommandRunner = (command, args, env) => {
      calls.push(`${env.DEBIAN_FRONTEND} ${command} ${args.join(" ")}`);
      if (args[0] === "install") simulated.installed.add("openssl");
      return true;
    };
    expect(ensurePrerequisites(simulated, run, () => undefined)).toBeUndefined();
    expect(calls).toEqual(["noninteractive apt-get update -qq", "noninteractive apt-get install -y -qq openssl"]);
  });

  it("stops when apt-get fails or the program is still missing after it", () => {
    const failing: CommandRunner = () => false;
    expect(ensurePrerequisites(machine({ installed: [] }), failing, () => undefined)).toMatch(
      /^apt-get could not install .*no suite was run/,
    );
    const installsNothing: CommandRunner = () => true;
    expect(ensurePrerequisites(machine({ installed: [] }), installsNothing, () => undefined)).toContain(
      "  - prometheus: apt-get install -y prometheus",
    );
  });

  it("npm test stops within seconds, before any suite, when a program is missing and it cannot install", () => {
    // Only Node on PATH: no apt-get, no browsers, no Redis.
    const result = spawnSync(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/test.ts"], {
      cwd: root,
      env: { ...process.env, PATH: path.dirname(process.execPath) },
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("  - redis-server: ");
    expect(result.stderr).toContain("No suite was run.");
    expect(result.stdout).not.toContain("=== ");
  });
});
