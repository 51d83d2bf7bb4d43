/**
 * What the test suites start themselves, from Debian: the browsers (Chromium for Playwright, Firefox ESR
 * for puppeteer-core over WebDriver BiDi), Redis and Redis Sentinel (the shared state of several instances
 * and its failover), Prometheus and promtool (the metrics test), openssl (the untrusted certificate of the
 * TLS test), util-linux's `script` (the pseudo-terminal of the start command's test), and a CJK font for
 * the Traditional Chinese screens.
 *
 * `npm test` (scripts/test.ts) checks them before any suite runs. On a Debian machine as root it installs
 * what is missing (`apt-get update`, then `apt-get install`, non-interactive); anywhere else it stops within
 * seconds, naming each missing program and the command that installs it. No suite ever fails half-way
 * because a program or the font is missing.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

export interface Prerequisite {
  /** The program a suite starts, looked up on PATH; with `file`, what that file is, as the messages name it. */
  program: string;
  /** For what is not a program: the file whose presence says it is installed. */
  file?: string;
  /** The Debian packages that install it (and what it needs beside it). */
  packages: readonly string[];
}

export const TEST_PREREQUISITES: readonly Prerequisite[] = [
  { program: "chromium", packages: ["chromium", "fonts-noto-cjk"] },
  // The Traditional Chinese screens need a CJK font: without it Chromium draws boxes of another width, so the
  // screenshots show boxes and the journeys that check where Chinese lines wrap fail. A Chromium installed
  // without it (it is not one of the chromium package's dependencies) gets it here.
  { program: "a CJK font (Noto Sans CJK)", file: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", packages: ["fonts-noto-cjk"] },
  { program: "firefox-esr", packages: ["firefox-esr"] },
  { program: "redis-server", packages: ["redis-server"] },
  { program: "redis-sentinel", packages: ["redis-sentinel"] },
  { program: "prometheus", packages: ["prometheus"] },
  { program: "promtool", packages: ["prometheus"] },
  { program: "openssl", packages: ["openssl"] },
  { program: "script", packages: ["bsdutils"] },
];

/** What the check needs to know about the machine; tests give a simulated one. */
export interface Machine {
  /** The effective user id (undefined where there is none, e.g. Windows). */
  uid: number | undefined;
  /** The PATH to search. */
  pathVariable: string;
  /** True when `file` exists and may be executed. */
  isExecutable(file: string): boolean;
  /** True when `file` exists and may be read. */
  isReadable(file: string): boolean;
  /** True on Debian and its derivatives (/etc/debian_version). */
  isDebian: boolean;
}

export function thisMachine(): Machine {
  return {
    uid: process.getuid?.(),
    pathVariable: process.env.PATH ?? "",
    isExecutable: (file) => {
      try {
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    isReadable,
    isDebian: isReadable("/etc/debian_version"),
  };
}

function isReadable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** The full path of `program` on the machine's PATH, or undefined. */
export function findProgram(program: string, machine: Machine): string | undefined {
  for (const directory of machine.pathVariable.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(directory, program);
    if (machine.isExecutable(candidate)) return candidate;
  }
  return undefined;
}

export function missingPrerequisites(machine: Machine, prerequisites: readonly Prerequisite[] = TEST_PREREQUISITES): Prerequisite[] {
  return prerequisites.filter((prerequisite) =>
    prerequisite.file === undefined ? findProgram(prerequisite.program, machine) === undefined : !machine.isReadable(prerequisite.file),
  );
}

function packagesOf(missing: readonly Prerequisite[]): string[] {
  return [...new Set(missing.flatMap((prerequisite) => prerequisite.packages))];
}

export type PrerequisitePlan =
  { action: "none" } | { action: "install"; packages: string[]; missing: Prerequisite[] } | { action: "stop"; message: string };

/**
 * What to do about the programs missing on `machine`: nothing, install them (root on Debian with apt-get),
 * or stop with a message naming each one and the command that installs it.
 */
export function planPrerequisites(machine: Machine, prerequisites: readonly Prerequisite[] = TEST_PREREQUISITES): PrerequisitePlan {
  const missing = missingPrerequisites(machine, prerequisites);
  if (missing.length === 0) return { action: "none" };
  const hasApt = findProgram("apt-get", machine) !== undefined;
  if (machine.isDebian && hasApt && machine.uid === 0) return { action: "install", packages: packagesOf(missing), missing };
  return { action: "stop", message: cannotInstallMessage(missing, { debian: machine.isDebian && hasApt, root: machine.uid === 0 }) };
}

export function cannotInstallMessage(missing: readonly Prerequisite[], machine: { debian: boolean; root: boolean }): string {
  const why = !machine.debian
    ? "This is not a Debian machine with apt-get, so `npm test` cannot install them itself."
    : "`npm test` installs them itself only when run as root.";
  const sudo = machine.root ? "" : "sudo ";
  const lines = missing.map((prerequisite) => `  - ${prerequisite.program}: ${sudo}apt-get install -y ${prerequisite.packages.join(" ")}`);
  const all = `${sudo}apt-get update && ${sudo}apt-get install -y ${packagesOf(missing).join(" ")}`;
  return [
    "The tests need what this machine does not have:",
    ...lines,
    why,
    machine.debian
      ? `Install them all at once with:\n  ${all}`
      : "Install them with your system's package manager (the names above are Debian's).",
    "No suite was run.",
  ].join("\n");
}

/** Runs one command, its output shown; true when it succeeded. */
export type CommandRunner = (command: string, args: string[], env: NodeJS.ProcessEnv) => boolean;

const runCommand: CommandRunner = (command, args, env) => spawnSync(command, args, { stdio: "inherit", env }).status === 0;

/**
 * Makes sure every prerequisite is there before a suite runs: installs what is missing where it can,
 * else returns the message that stops `npm test`. Returns undefined when all is there.
 */
export function ensurePrerequisites(
  machine: Machine = thisMachine(),
  run: CommandRunner = runCommand,
  log: (line: string) => void = console.info,
): string | undefined {
  const plan = planPrerequisites(machine);
  if (plan.action === "none") return undefined;
  if (plan.action === "stop") return plan.message;
  log(`Installing from Debian what the tests need: ${plan.packages.join(" ")}`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (!run("apt-get", ["update", "-qq"], env) || !run("apt-get", ["install", "-y", "-qq", ...plan.packages], env)) {
    return `apt-get could not install ${plan.packages.join(" ")}; no suite was run.`;
  }
  const stillMissing = missingPrerequisites(machine);
  if (stillMissing.length > 0) return cannotInstallMessage(stillMissing, { debian: true, root: true });
  return undefined;
}
