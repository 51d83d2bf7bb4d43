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
      if ((index + 1) % 25 === 0 || index + 1 === soakSessions) progress(`signing in ${soakSessions} sessions`, index + 1, soakSessions);
      // Several sessions per demo member, each its own sign-in (its own tokens and cookie).
      sessions.push(await signInToDashboard(context.target, DEMO_MEMBERS[index % DEMO_MEMBERS.length]!.email));
    }
    const inspector = await context.inspector();
    const load = (seconds: number): Promise<LoadSample> =>
      runLoad({ url: `${context.target.appUrlIPv4}/api/account/courses`, connections: soakConnections, durationSeconds: seconds, sessions });
    const warmUp = Math.min(WARM_UP_SECONDS, Math.max(1, Math.round(soakSeconds / 5)));
    const rounds = Math.max(1, Math.round((soakSeconds - warmUp) / ROUND_SECONDS));
    const startRss = residentBytes(context.serverPid);
    progress(`warm-up, ${warmUp} s`, 1, rounds + 1);
    let answered = 0;
    let failures = 0;
    const tally = (sample: LoadSample) => {
      answered += sample.latenciesMs.length;
      failures += sample.failures;
    };
    tally(await load(warmUp));
    const warmRss = residentBytes(context.serverPid);
    const warmHeap = await inspector.heapAfterGc();
    const rssSeries = [warmRss];
    for (let index = 0; index < rounds; index += 1) {
      progress(`${soakConnections} connections over ${soakSessions} sessions, ${round((soakSeconds - warmUp) / rounds)} s`, index + 2, rounds + 1);
      tally(await load((soakSeconds - warmUp) / rounds));
      rssSeries.push(residentBytes(context.serverPid));
    }
    const endRss = residentBytes(context.serverPid);
    const endHeap = await inspector.heapAfterGc();
    const rssGrowth = round(((endRss - warmRss) / warmRss) * 100);
    const heapGrowth = round(((endHeap - warmHeap) / warmHeap) * 100);
    const mib = (bytes: number) => round(bytes / MiB);
    return {
      summary: [
        `(e) soak, ${soakConnections} connections over ${soakSessions} sessions for ${soakSeconds} s: ${answered} requests, ${failures} failed`,
        `    resident memory: ${mib(startRss)} MiB at start, ${mib(warmRss)} MiB after ${warmUp} s, ${mib(endRss)} MiB at the end: ${rssGrowth >= 0 ? "+" : ""}${rssGrowth} % after warm-up (target < 20 %)`,
        `    heap after a forced GC: ${mib(warmHeap)} MiB after ${warmUp} s, ${mib(endHeap)} MiB at the end: ${heapGrowth >= 0 ? "+" : ""}${heapGrowth} % (target: no growth)`,
        `    resident memory every ${ROUND_SECONDS} s (MiB): ${rssSeries.map(mib).join(", ")}`,
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
