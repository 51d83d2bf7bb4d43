/**
 * The dashboard's Next.js server process, seen from outside: its CPU time and resident memory from
 * /proc (Linux), and, through the Node inspector (opened on demand with SIGUSR1 on a port of our
 * choosing), a forced garbage collection, its heap, its garbage-collection pauses, and CPU profiles.
 * Nothing in the app knows about it.
 */
import { readdirSync, readFileSync } from "node:fs";

const CLOCK_TICKS_PER_SECOND = 100;

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
}

export function parentOf(pid: number): number | undefined {
  const stat = readProc(pid, "stat");
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields ? Number(fields[1]) : undefined;
}

/** The descendant of `rootPid` running the standalone server.js (Next.js names it "next-server"): the process that serves the dashboard. */
export function findNextServer(rootPid: number): number | undefined {
  const descendants = new Set([rootPid]);
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  // A few passes reach grandchildren whatever the order /proc lists them in.
  for (let pass = 0; pass < 4; pass += 1) for (const pid of all) if (descendants.has(parentOf(pid) ?? -1)) descendants.add(pid);
  for (const pid of descendants) {
    const command = readProc(pid, "cmdline")?.split("\0") ?? [];
    if (command[0]?.startsWith("next-server") || (command.some((part) => part.endsWith("next/dist/bin/next")) && command.includes("start")))
      return pid;
  }
  return undefined;
}

/** User plus system CPU time of the process so far, in milliseconds (10 ms resolution). */
export function cpuTimeMs(pid: number): number {
  const stat = readProc(pid, "stat");
  if (!stat) throw new Error(`process ${pid} is gone`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, 12 and 13 after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * Time the process's main thread (where all of Node's JavaScript runs) spent runnable but waiting for a
 * CPU, in milliseconds: on a shared machine, the part of a request's latency that is other people's load.
 */
export function runQueueWaitMs(pid: number): number {
  const schedstat = readProc(pid, "schedstat");
  if (!schedstat) throw new Error(`process ${pid} is gone`);
  return Number(schedstat.split(" ")[1]) / 1e6;
}

/** Resident set size in bytes. */
export function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readProc(pid, "status") ?? "");
  if (!match) throw new Error(`process ${pid} is gone`);
  return Number(match[1]) * 1024;
}

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }[];
  samples?: number[];
  startTime: number;
  endTime: number;
}

/** A Chrome DevTools Protocol session with the server's inspector. */
export class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    });
  }

  /**
   * Opens the inspector of `pid`, which must have been started with `--inspect-port=<host:port>` (in
   * NODE_OPTIONS): SIGUSR1 makes Node listen there, only in the process that receives it.
   */
  static async attach(pid: number, hostPort: string): Promise<Inspector> {
    process.kill(pid, "SIGUSR1");
    const deadline = Date.now() + 10_000;
    let targets: { webSocketDebuggerUrl: string }[] | undefined;
    while (!targets) {
      try {
        targets = (await (await fetch(`http://${hostPort}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`the dashboard's inspector did not open on ${hostPort}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("error", () => reject(new Error("could not connect to the dashboard's inspector")), { once: true });
    });
    return new Inspector(socket);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise<T>((resolve, reject) => this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject }));
  }

  /** Runs a full garbage collection, then returns the heap in use (bytes), and the part of it that is compiled code. */
  async heapAfterGc(): Promise<{ heapUsed: number; codeSpace: number }> {
    await this.send("HeapProfiler.collectGarbage");
    const expression = `(() => {
      const spaces = process.getBuiltinModule("v8").getHeapSpaceStatistics();
      const code = spaces.filter((space) => space.space_name.startsWith("code")).reduce((sum, space) => sum + space.space_used_size, 0);
      return { heapUsed: process.memoryUsage().heapUsed, codeSpace: code };
    })()`;
    const { result } = await this.send<{ result: { value: { heapUsed: number; codeSpace: number } } }>("Runtime.evaluate", {
      expression,
      returnByValue: true,
    });
    return result.value;
  }

  /**
   * Evaluates `expression` in the server and keeps its value there, held by this inspector session as a
   * remote object (nothing is put on the server's globals): `call` runs a function with it as `this` and
   * returns the result by value; `release` lets it go.
   */
  async hold(expression: string): Promise<RemoteObject> {
    const evaluated = await this.send<{ result: { objectId?: string }; exceptionDetails?: { text: string } }>("Runtime.evaluate", {
      expression,
    });
    const { objectId } = evaluated.result;
    if (evaluated.exceptionDetails || !objectId)
      throw new Error(`the dashboard could not evaluate the bench's probe: ${evaluated.exceptionDetails?.text ?? "no object"}`);
    return {
      call: async <T>(functionDeclaration: string): Promise<T> => {
        const called = await this.send<{ result: { value: T }; exceptionDetails?: { text: string } }>("Runtime.callFunctionOn", {
          objectId,
          functionDeclaration,
          returnByValue: true,
        });
        if (called.exceptionDetails) throw new Error(`the bench's probe failed in the dashboard: ${called.exceptionDetails.text}`);
        return called.result.value;
      },
      release: async () => {
        await this.send("Runtime.releaseObject", { objectId });
      },
    };
  }

  /**
   * Starts summing the time the process's main thread stands still for garbage collection: the durations
   * of Node's `gc` performance entries (scavenges, mark-compacts, their incremental steps), added up by an
   * observer held in the server (`hold`); `read` gives the milliseconds so far, `stop` disconnects it.
   */
  async observeGcPauses(): Promise<{ read: () => Promise<number>; stop: () => Promise<void> }> {
    const pauses = await this.hold(`(() => {
      const pauses = { ms: 0 };
      const { PerformanceObserver } = process.getBuiltinModule("node:perf_hooks");
      pauses.observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) pauses.ms += entry.duration;
      });
      pauses.observer.observe({ entryTypes: ["gc"] });
      return pauses;
    })()`);
    return {
      read: () => pauses.call<number>("function () { return this.ms; }"),
      stop: async () => {
        await pauses.call<undefined>("function () { this.observer.disconnect(); }");
        await pauses.release();
      },
    };
  }

  async startProfile(): Promise<void> {
    await this.send("Profiler.enable");
    // 1 ms sampling, like `node --cpu-prof`'s default.
    await this.send("Profiler.setSamplingInterval", { interval: 1000 });
    await this.send("Profiler.start");
  }

  async stopProfile(): Promise<CpuProfile> {
    const { profile } = await this.send<{ profile: CpuProfile }>("Profiler.stop");
    return profile;
  }

  close(): void {
    this.socket.close();
  }
}

/** A value kept in the dashboard's process for the bench (Inspector.hold). */
export interface RemoteObject {
  call<T>(functionDeclaration: string): Promise<T>;
  release(): Promise<void>;
}

export interface ProfileFrame {
  frame: string;
  selfPercent: number;
}

/** The frames where the most samples were taken (self time), as `node --cpu-prof` output opened in DevTools' "Bottom-Up" view. */
export function topSelfFrames(profile: CpuProfile, count: number): ProfileFrame[] {
  const selfHits = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    // Waiting is not work: shares are of the samples where the process was busy.
    if (hits === 0 || functionName === "(idle)") continue;
    const file = url.replace(/^.*\/(node_modules|\.next)\//, "$1/").replace(/^file:\/\//, "");
    const key = `${functionName || "(anonymous)"} ${file ? `${file}:${lineNumber + 1}` : ""}`.trim();
    selfHits.set(key, (selfHits.get(key) ?? 0) + hits);
    total += hits;
  }
  return [...selfHits]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, hits]) => ({ frame, selfPercent: Math.round((hits / total) * 1000) / 10 }));
}

/**
 * Self time summed by where the code lives: a package under node_modules (Next.js's bundled copies of
 * React and its own server counted as "next"), a built chunk of the app, or Node's own internals.
 */
export function topSelfModules(profile: CpuProfile, count: number): ProfileFrame[] {
  const selfHits = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url } = node.callFrame;
    if (hits === 0 || functionName === "(idle)") continue;
    const packageName = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
    const place =
      packageName ??
      (/\.next\//.test(url)
        ? url.replace(/^.*\/\.next\//, ".next/")
        : url.startsWith("node:")
          ? "node internals"
          : url || `(${functionName || "native"})`);
    selfHits.set(place, (selfHits.get(place) ?? 0) + hits);
    total += hits;
  }
  return [...selfHits]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([frame, hits]) => ({ frame, selfPercent: Math.round((hits / total) * 1000) / 10 }));
}
