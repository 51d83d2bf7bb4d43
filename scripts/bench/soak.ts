/**
 * `npm run bench -- --soak`: 20 connections over 200 signed-in sessions for five minutes. Memory must be
 * flat after warm-up: the dashboard's resident memory after the first minute grows less than 20 %, and
 * its heap after a forced garbage collection does not grow.
 */
import { residentBytes } from "./dashboard-process";
import { round, type BenchSection } from "./context";
import { runLoad, type LoadSample } from "./load";
import { signInToDashboard, type Cookies } from "./members";
import { progress } from "./progress";
import { DEMO_MEMBERS } from "../../sandbox/seed";

const WARM_UP_SECONDS = 60;
const ROUND_SECONDS = 30;
const MiB = 1024 * 1024;

export const soak: BenchSection = {
  name: "soak",
  title: "soak: memory under sustained load over many sessions",
  enabled: (options) => options.soak,
  async run(context) {
    const { soakSessions, soakConnections, soakSeconds } = context.options;
    const sessions: Cookies[] = [];
    for (let index = 0; index < soakSessions; index += 1) {
      if ((index + 1) % 25 === 0 || index + 1 === soakSessions) progress("signing in members", index + 1, soakSessions, "session");
      // Several sessions per demo member, each its own sign-in (its own tokens and cookie).
      sessions.push(await signInToDashboard(context.target, DEMO_MEMBERS[index % DEMO_MEMBERS.length]!.email));
    }
    const inspector = await context.inspector();
    const load = (seconds: number): Promise<LoadSample> =>
      runLoad({ url: `${context.target.appUrlIPv4}/api/account/courses`, connections: soakConnections, durationSeconds: seconds, sessions });
    // Load in rounds of ROUND_SECONDS at most: a progress line and a memory reading after each.
    const warmUp = Math.min(WARM_UP_SECONDS, Math.max(1, Math.round(soakSeconds / 5)));
    const roundLengths = (seconds: number) => {
      const count = Math.max(1, Math.round(seconds / ROUND_SECONDS));
      return Array.from({ length: count }, () => seconds / count);
    };
    const plan = [...roundLengths(warmUp).map((seconds) => ({ seconds, warmUp: true })), ...roundLengths(soakSeconds - warmUp).map((seconds) => ({ seconds, warmUp: false }))];
    const startRss = residentBytes(context.serverPid);
    let answered = 0;
    let failures = 0;
    let warmRss = startRss;
    let warmHeap = 0;
    const rssSeries: number[] = [];
    for (const [index, step] of plan.entries()) {
      progress(`${soakConnections} connections over ${soakSessions} sessions, ${round(step.seconds)} s${step.warmUp ? " (warm-up)" : ""}`, index + 1, plan.length);
      const sample = await load(step.seconds);
      answered += sample.latenciesMs.length;
      failures += sample.failures;
      rssSeries.push(residentBytes(context.serverPid));
      if (step.warmUp && !plan[index + 1]?.warmUp) {
        // Read after a full GC: between collections resident memory swings by a hundred MiB and more.
        warmHeap = await inspector.heapAfterGc();
        warmRss = residentBytes(context.serverPid);
      }
    }
    const endHeap = await inspector.heapAfterGc();
    const endRss = residentBytes(context.serverPid);
    const rssGrowth = round(((endRss - warmRss) / warmRss) * 100);
    const heapGrowth = round(((endHeap - warmHeap) / warmHeap) * 100);
    const mib = (bytes: number) => round(bytes / MiB);
    return {
      summary: [
        `(e) soak, ${soakConnections} connections over ${soakSessions} sessions for ${soakSeconds} s: ${answered} requests, ${failures} failed`,
        `    resident memory after a forced GC: ${mib(warmRss)} MiB after ${warmUp} s, ${mib(endRss)} MiB at the end: ${rssGrowth >= 0 ? "+" : ""}${rssGrowth} % after warm-up (target < 20 %); ${mib(startRss)} MiB before the load`,
        `    heap after a forced GC: ${mib(warmHeap)} MiB after ${warmUp} s, ${mib(endHeap)} MiB at the end: ${heapGrowth >= 0 ? "+" : ""}${heapGrowth} % (target: no growth)`,
        `    resident memory after each round, as garbage collection left it (MiB): ${rssSeries.map(mib).join(", ")}`,
      ],
      results: {
        connections: soakConnections,
        sessions: soakSessions,
        seconds: soakSeconds,
        warmUpSeconds: warmUp,
        requests: answered,
        failures,
        rssMiB: { start: mib(startRss), afterWarmUp: mib(warmRss), end: mib(endRss), series: rssSeries.map(mib) },
        rssGrowthPercent: rssGrowth,
        heapAfterGcMiB: { afterWarmUp: mib(warmHeap), end: mib(endHeap) },
        heapGrowthPercent: heapGrowth,
        target: { rssGrowthPercent: 20, heapGrowthPercent: 0 },
      },
    };
  },
};
