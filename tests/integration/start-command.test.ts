import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { request as httpRequest } from "node:http";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { METHOD_GUARD_FILES } from "@/scripts/standalone";
import { SEEDED_DASHBOARD_CLIENT } from "@/sandbox/seed";

import { ChildOutput } from "../support/child-output";
import { freePort, freePorts } from "../support/free-port";
import { signInOverHttp, type HttpBrowser } from "../support/http-browser";
import { waitUntil } from "../support/wait-until";

const root = path.resolve(import.meta.dirname, "..", "..");
const BUILD_TIMEOUT_MS = 12 * 60_000;
const STOP_TIMEOUT_MS = 30_000;

it("the run command refuses bad configuration with one message naming every bad variable, before building anything", () => {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: root,
    env: {
      ...process.env,
      SITE_URL: "http://school.example.com",
      OAUTH_CLIENT_ID: "",
      OAUTH_CLIENT_SECRET: "",
      SESSION_SECRET: "short",
      PORT: "3999",
    },
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain("Invalid configuration:");
  for (const variable of ["SITE_URL", "OAUTH_CLIENT_ID", "OAUTH_CLIENT_SECRET", "SESSION_SECRET"])
    expect(result.stderr).toContain(`- ${variable}`);
  expect(result.stderr).toContain(".env.example");
  expect(result.stdout).not.toContain("build_started");
});

/** A command started in its own process group, so that a failed test can still stop all of it by its id. */
class Running {
  readonly output: ChildOutput;
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(command: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }) {
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.output = new ChildOutput(this.child);
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
    running.add(this);
    void this.exited.then(() => running.delete(this));
  }

  /** SIGTERM to the command's own process only, as a process manager sends it. */
  terminate(): void {
    this.child.kill("SIGTERM");
  }

  /** Stops the whole process group (cleanup of a failed test). */
  kill(): void {
    try {
      process.kill(-this.child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }

  /** Whether any process of the command's group is still running. */
  groupAlive(): boolean {
    try {
      process.kill(-this.child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  }

  async stop(): Promise<number | null> {
    this.terminate();
    return withTimeout(this.exited, STOP_TIMEOUT_MS, "the command did not exit after SIGTERM");
  }
}

const running = new Set<Running>();
// Even if the test run itself is stopped, the process groups it started do not outlive it.
process.once("exit", () => {
  for (const command of running) command.kill();
});

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitForHealth(appUrl: string, command: Running): Promise<void> {
  await waitUntil(async () => (await fetch(`${appUrl}/api/health`)).ok, {
    what: `${appUrl}/api/health`,
    timeoutMs: BUILD_TIMEOUT_MS,
    intervalMs: 500,
    process: command.output,
  });
}

/** Signs maya in over HTTP, as a browser would, and checks her session and data: her browser, bound to `appUrl`. */
async function expectSignedInMember(appUrl: string): Promise<{ get: (path: string) => Promise<Response>; browser: HttpBrowser }> {
  const { browser, done } = await signInOverHttp(appUrl, "/api/auth/login?returnTo=%2Fcourses");
  expect(done.status).toBe(303);
  expect(new URL(done.headers.get("location")!, appUrl).pathname).toBe("/courses");
  const get = (path: string) => browser.get(appUrl, path);
  const session = await get("/api/session");
  expect(session.status).toBe(200);
  expect(await session.json()).toMatchObject({ email: "maya@example.com" });
  expect((await get("/api/account/courses")).status).toBe(200);
  return { get, browser };
}

async function refusesConnections(appUrl: string): Promise<boolean> {
  try {
    await fetch(`${appUrl}/api/health`, { signal: AbortSignal.timeout(5_000) });
    return false;
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED";
  }
}

/** One request with a method fetch() refuses to send (TRACE), through node:http. */
function statusAndAllow(url: string, method: string): Promise<{ status: number; allow: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, allow: response.headers.allow });
    });
    request.on("error", reject);
    request.end();
  });
}

/**
 * The method guard (scripts/method-guard.ts) in front of the server at `appUrl`: what Next.js cannot
 * represent (a Fetch Request refuses TRACE) and a method a path does not take are 405 with `Allow`, and an
 * RSC request whose router state Next.js cannot read is 400, never 500.
 */
async function expectMethodGuard(appUrl: string, browser: HttpBrowser): Promise<void> {
  expect(await statusAndAllow(`${appUrl}/courses`, "TRACE")).toEqual({ status: 405, allow: "GET, HEAD" });
  expect(await statusAndAllow(`${appUrl}/api/session`, "TRACE")).toEqual({ status: 405, allow: "GET, HEAD, OPTIONS" });
  expect(await statusAndAllow(`${appUrl}/api/account/courses`, "DELETE")).toEqual({ status: 405, allow: "GET, HEAD, OPTIONS" });
  const unreadable = { RSC: "1", "Next-Router-State-Tree": encodeURIComponent(JSON.stringify({ children: [] })) };
  expect((await browser.fetch(`${appUrl}/courses?_rsc=x`, { headers: unreadable })).status).toBe(400);
}

/**
 * The README's commands, run as a newcomer and an operator run them: from a copy of exactly the files git
 * tracks (an untracked folder on this machine cannot make them pass), with `npm`. Slow: it builds twice (a
 * fresh copy, then `npm run build` after a source change) and starts a third build only to stop it.
 */
describe("the run command, from the files git tracks", { timeout: BUILD_TIMEOUT_MS }, () => {
  let workspace: string;
  let app: string;
  const npmEnv = {
    ...process.env,
    PATH: `${path.join(root, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
    NODE_ENV: undefined,
    LOG_LEVEL: "info",
  };

  beforeAll(() => {
    workspace = mkdtempSync(path.join(tmpdir(), "dashboard-run-command-"));
    app = path.join(workspace, "app");
    const tracked = spawnSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).stdout.split("\0").filter(Boolean);
    for (const file of tracked) {
      const from = path.join(root, file);
      if (!existsSync(from)) continue;
      mkdirSync(path.dirname(path.join(app, file)), { recursive: true });
      cpSync(from, path.join(app, file));
    }
    // `npm install`, without the network: hard links to this checkout's packages (Turbopack refuses a
    // node_modules symlinked from outside the project), or a copy where the temp dir is another disk.
    const modules = [path.join(root, "node_modules"), path.join(app, "node_modules")];
    if (spawnSync("cp", ["-al", ...modules]).status !== 0) {
      rmSync(modules[1]!, { recursive: true, force: true });
      const copied = spawnSync("cp", ["-a", ...modules]);
      if (copied.status !== 0) throw new Error(`could not copy node_modules: ${copied.stderr.toString()}`);
    }
  }, 600_000);

  afterAll(async () => {
    for (const command of running) command.kill();
    await Promise.all([...running].map((command) => command.exited));
    rmSync(workspace, { recursive: true, force: true });
  }, 60_000);

  function npm(args: string[], env: Record<string, string | undefined>): Running {
    return new Running("npm", args, { cwd: app, env: { ...npmEnv, ...env } });
  }

  /** `npm start` with no configuration (the sandbox and the dashboard) on free ports. */
  async function startDemo(): Promise<{ start: Running; appUrl: string; siteUrl: string }> {
    const [appPort, sitePort] = (await freePorts(2)) as [number, number];
    const appUrl = `http://localhost:${appPort}`;
    const start = npm(["start"], { SITE_URL: undefined, PORT: String(appPort), APP_URL: appUrl, SANDBOX_PORT: String(sitePort) });
    return { start, appUrl, siteUrl: `http://127.0.0.1:${sitePort}` };
  }

  async function demoStart(): Promise<Running> {
    const { start, appUrl, siteUrl } = await startDemo();
    await waitForHealth(appUrl, start);
    await expectSignedInMember(appUrl);
    expect(await start.stop()).toBe(0);
    expect(await refusesConnections(appUrl)).toBe(true);
    // The sandbox stops with the dashboard.
    expect(await refusesConnections(siteUrl)).toBe(true);
    return start;
  }

  it("npm start builds once and serves a signed-in member; stopped and started again, it serves without building", async () => {
    expect(existsSync(path.join(app, "public", "favicon.ico"))).toBe(true);
    const first = await demoStart();
    expect(first.output.events("build_started")).toHaveLength(1);
    const second = await demoStart();
    expect(second.output.events("build_started")).toHaveLength(0);
    expect(() => second.output.jsonLines()).not.toThrow();
  });

  // The rebuild is stopped as an operator's Ctrl-C stops it; `npm run build` below then builds the changed sources
  // (one build fewer for the suite), and `npm start` after it serves them without building.
  it("after a source change, npm start builds again; stopped while it builds, it exits 0 and leaves no process behind", async () => {
    appendFileSync(path.join(app, "lib", "format", "currency.ts"), "\n// changed after the last build\n");
    const { start, siteUrl } = await startDemo();
    await waitUntil(() => start.output.events("build_started").length === 1, {
      what: "the build starting",
      timeoutMs: 60_000,
      intervalMs: 100,
      process: start.output,
    });
    // Once Next.js's build is under way (its first line), so the stop reaches the build itself.
    await waitUntil(() => start.output.events("next_output").length > 0, {
      what: "next build's first line",
      timeoutMs: 60_000,
      intervalMs: 100,
      process: start.output,
    });
    expect(await start.stop()).toBe(0);
    expect(start.output.events("build_finished")).toHaveLength(0);
    expect(start.output.events("build_failed")).toHaveLength(0);
    await waitUntil(() => !start.groupAlive(), { what: "every process of npm start exiting", timeoutMs: STOP_TIMEOUT_MS, intervalMs: 200 });
    expect(await refusesConnections(siteUrl)).toBe(true);
  });

  describe("with the production variables, after npm run build", () => {
    let site: RunningSandbox;
    let appUrl: string;
    let appPort: number;

    beforeAll(async () => {
      appPort = await freePort();
      appUrl = `http://localhost:${appPort}`;
      site = await startSandbox({ port: 0, dashboardRedirectUris: [`${appUrl}/api/auth/callback`] });
      const build = npm(["run", "build"], {});
      expect(await withTimeout(build.exited, BUILD_TIMEOUT_MS, "npm run build did not finish")).toBe(0);
    }, BUILD_TIMEOUT_MS);
    afterAll(async () => site.close());

    const production = () => ({
      SITE_URL: site.url,
      OAUTH_CLIENT_ID: SEEDED_DASHBOARD_CLIENT.clientId,
      OAUTH_CLIENT_SECRET: SEEDED_DASHBOARD_CLIENT.clientSecret,
      APP_URL: appUrl,
      SESSION_SECRET: "a-production-secret-of-more-than-32-characters",
      PORT: String(appPort),
    });

    it("npm start serves the standalone bundle without building again, and SIGTERM lets a request in flight finish", async () => {
      const start = npm(["start"], production());
      await waitForHealth(appUrl, start);
      expect(start.output.events("build_started")).toHaveLength(0);
      expect(start.output.events("sandbox_started")).toHaveLength(0);
      const member = await expectSignedInMember(appUrl);
      expect((await fetch(`${appUrl}/api/ready`)).status).toBe(200);
      // A page view is logged once its answer is sent (Next.js's after(), in the production build).
      const courses = await member.get("/courses");
      expect(courses.status).toBe(200);
      await courses.text();
      const pageRequestId = courses.headers.get("x-request-id");
      const pageView = await waitUntil(() => start.output.events("page_view").find((line) => line.requestId === pageRequestId), {
        what: "the page view's log line",
        timeoutMs: 5_000,
        intervalMs: 100,
      });
      // Node's fetch sends Sec-Fetch-Mode: cors, as the app router's fetch of a tab click does.
      expect(pageView).toMatchObject({
        page: "/courses",
        navigation: "router",
        outcome: "shown",
        durationMs: expect.any(Number) as number,
      });

      // A slow site: the request is still in flight when the process manager says stop.
      site.setKnobs({ latencyMs: 2_500 });
      const inFlight = member.get("/api/account/orders");
      await new Promise((resolve) => setTimeout(resolve, 800));
      let answered = false;
      const settled = () => (answered = true);
      void inFlight.then(settled, settled);
      start.terminate();
      // The signal goes through npm and the launcher to the server, which then closes its listener at once:
      // on a loaded machine that takes a moment, so the refusal is awaited, and must come while the request
      // is still in flight (the site answers it 2.5 s after it was sent).
      await waitUntil(() => refusesConnections(appUrl), { what: "the server refusing new connections", timeoutMs: 1_500, intervalMs: 100 });
      expect(answered, "the request was still in flight").toBe(false);
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(await withTimeout(start.exited, STOP_TIMEOUT_MS, "npm start did not exit")).toBe(0);
      site.setKnobs({ latencyMs: 0 });
      expect(start.output.events("shutdown_finished")).toEqual([expect.objectContaining({ drained: true, requestsCutOff: 0 })]);
      const lines = start.output.jsonLines();
      // The request that was in flight is answered, and logged, after shutdown began.
      const shutdownStarted = lines.findIndex((line) => line.event === "shutdown_started");
      expect(shutdownStarted).toBeGreaterThan(0);
      expect(lines.slice(shutdownStarted).filter((line) => line.event === "request")).toEqual([
        expect.objectContaining({ route: "/api/account/[resource]", status: 200, durationMs: expect.any(Number) as number }),
      ]);
    });

    it("the bundle copied as the README's Deploy section says runs alone with node server.js and signs a member in", async () => {
      const deploy = path.join(workspace, "deploy");
      rmSync(deploy, { recursive: true, force: true });
      // README, Deploy: the standalone folder, then its static assets and public/ beside server.js.
      cpSync(path.join(app, ".next", "standalone"), deploy, { recursive: true });
      rmSync(path.join(deploy, ".next", "static"), { recursive: true, force: true });
      rmSync(path.join(deploy, "public"), { recursive: true, force: true });
      cpSync(path.join(app, ".next", "static"), path.join(deploy, ".next", "static"), { recursive: true });
      cpSync(path.join(app, "public"), path.join(deploy, "public"), { recursive: true });
      // ...and the method guard, loaded before server.js (its route table came with the standalone folder).
      for (const file of METHOD_GUARD_FILES) cpSync(path.join(app, file), path.join(deploy, file));

      const server = new Running(process.execPath, ["--import", "./scripts/method-guard.ts", "server.js"], {
        cwd: deploy,
        env: { PATH: process.env.PATH, ...production(), HOSTNAME: "127.0.0.1", NODE_ENV: "production", NEXT_MANUAL_SIG_HANDLE: "1" },
      });
      await waitForHealth(appUrl, server);
      const member = await expectSignedInMember(appUrl);
      const page = await member.get("/courses");
      expect(page.status).toBe(200);
      const html = await page.text();
      const script = /<script[^>]+src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(`${appUrl}${script}`)).status).toBe(200);
      expect((await fetch(`${appUrl}/favicon.ico`)).headers.get("content-type")).toBe("image/x-icon");
      expect((await fetch(`${appUrl}/manifest.webmanifest`)).status).toBe(200);
      // Every request, the first and the later ones, goes through Next.js's router (whose Vary names rsc).
      for (const attempt of [1, 2]) {
        const courses = await member.get("/api/account/courses");
        expect(courses.status, `attempt ${attempt}`).toBe(200);
        expect(courses.headers.get("vary") ?? "").toMatch(/\brsc\b/);
        expect(((await courses.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
      }
      // The bundle carries Next.js's own router-state parser (next.config.mjs, outputFileTracingIncludes).
      await expectMethodGuard(appUrl, member.browser);
      expect(await server.stop()).toBe(0);
    });
  });

  it("npm run dev serves a signed-in member and writes nothing into the checkout", async () => {
    const before = readdirSync(app).sort();
    const [appPort, sitePort] = (await freePorts(2)) as [number, number];
    const appUrl = `http://localhost:${appPort}`;
    // As a developer's terminal with a coding agent has it (Next.js 16.4 writes its AGENTS.md only for an agent
    // it detects, by AI_AGENT among others; 16.5 on every start).
    const env = { SITE_URL: undefined, PORT: String(appPort), APP_URL: appUrl, SANDBOX_PORT: String(sitePort), AI_AGENT: "a-coding-agent" };
    const dev = npm(["run", "dev"], env);
    await waitForHealth(appUrl, dev);
    const member = await expectSignedInMember(appUrl);
    expect((await member.get("/courses")).status).toBe(200);
    // Development answers every URL as production does: the same method guard is loaded before `next dev`.
    await expectMethodGuard(appUrl, member.browser);
    expect(await dev.stop()).toBe(0);
    // `next dev` writes an AGENTS.md unless next.config.mjs says `agentRules: false`.
    expect(readdirSync(app).sort()).toEqual(before);
  });
});
