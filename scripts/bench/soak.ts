/**
 * `npm run bench -- --soak`: 20 connections over 76 signed-in sessions (19 per demo member: with the
 * bench's own session, the most that stay signed in) for five minutes, the rounds alternating between the
 * data route and the Courses page (HTML, the page render with its prefetch). Every request must succeed,
 * and memory must be flat after warm-up: the dashboard's resident memory after the first minute grows less
 * than 20 %, and its heap after a forced garbage collection does not grow.
 */
import { residentBytes } from "./dashboard-process";
import { round, type BenchSection } from "./context";
import { runLoad, type LoadSample } from "./load";
import { signInToDashboard, type Cookies } from "./members";
import { progress } from "./progress";
import { DEMO_MEMBERS } from "../../sandbox/seed";
import { PAGE_PATHS } from "../../lib/contract/paths";
import { MAX_SESSIONS_PER_MEMBER } from "../../lib/contract/signed-in-sessions";

const WARM_UP_SECONDS = 60;
const ROUND_SECONDS = 30;
const MiB = 1024 * 1024;

/** What the rounds ask for, in turn: a data request, and a page view (whose render keeps nothing either). */
const SOAKED_PATHS = ["/api/account/courses", PAGE_PATHS.courses];

export const soak: BenchSection = {
  name: "soak",
  title: "soak: memory under sustained load over many sessions",
  enabled: (options) => options.soak,
  async run(context) {
    const { soakSessions, soakConnections, soakSeconds } = context.options;
    // Past its cap a member's least recently active session ends, which would measure refusals; one place
    // per member stays free for the bench's own session, which the sections after the soak still use.
    const mostSessions = DEMO_MEMBERS.length * (MAX_SESSIONS_PER_MEMBER - 1);
    if (soakSessions > mostSessions)
      throw new Error(
        `the soak can keep at most ${mostSessions} sessions alive beside the bench's own` +
          ` (${MAX_SESSIONS_PER_MEMBER} per demo member), not ${soakSessions}`,
      );
    const sessions: Cookies[] = [];
    for (let index = 0; index < soakSessions; index += 1) {
      if ((index + 1) % 25 === 0 || index + 1 === soakSessions) progress("signing in members", index + 1, soakSessions, "session");
      // Several sessions per demo member, each its own sign-in (its own tokens and cookie).
      sessions.push(await signInToDashboard(context.target, DEMO_MEMBERS[index % DEMO_MEMBERS.length]!.email));
    }
    const inspector = await context.inspector();
    const load = (seconds: number, path: string): Promise<LoadSample> =>
      runLoad({
        url: `${context.target.appUrlIPv4}${path}`,
        connections: soakConnections,
        durationSeconds: seconds,
        sessions,
      });
    // Load in rounds of ROUND_SECONDS at most: a progress line and a memory reading after each.
    const warmUp = Math.min(WARM_UP_SECONDS, Math.max(1, Math.round(soakSeconds / 5)));
    const roundLengths = (seconds: number, leastRounds = 1) => {
      const count = Math.max(leastRounds, Math.round(seconds / ROUND_SECONDS));
      return Array.from({ length: count }, () => seconds / count);
    };
    // The warm-up asks for every path once at least: memory is compared from the end of it.
    const plan = [
      ...roundLengths(warmUp, SOAKED_PATHS.length).map((seconds) => ({ seconds, warmUp: true })),
      ...roundLengths(soakSeconds - warmUp).map((seconds) => ({ seconds, warmUp: false })),
    ];
    const startRss = residentBytes(context.serverPid);
    let answered = 0;
    let failures = 0;
    // After each round: a full GC, then the heap and resident memory (between collections, resident
    // memory swings by a hundred MiB and more, which says nothing about what is kept).
    const afterGc: { heapUsed: number; codeSpace: number; rss: number; warmUp: boolean; atSeconds: number }[] = [];
    let elapsedSeconds = 0;
    for (const [index, step] of plan.entries()) {
      const path = SOAKED_PATHS[index % SOAKED_PATHS.length]!;
      progress(
        `${soakConnections} connections over ${soakSessions} sessions, ${path}, ${round(step.seconds)} s${step.warmUp ? " (warm-up)" : ""}`,
        index + 1,
        plan.length,
      );
      const sample = await load(step.seconds, path);
      elapsedSeconds += step.seconds;
      answered += sample.latenciesMs.length;
      failures += sample.failures;
      // Read at once: a finished call leaves no timer behind that would keep its request alive (site-fetch.ts).
      const heap = await inspector.heapAfterGc();
      afterGc.push({ ...heap, rss: residentBytes(context.serverPid), warmUp: step.warmUp, atSeconds: elapsedSeconds });
    }
    const warm = afterGc.filter((reading) => reading.warmUp).at(-1) ?? afterGc[0]!;
    const end = afterGc.at(-1)!;
    const growth = (from: number, to: number) => round(((to - from) / from) * 100);
    const rssGrowth = growth(warm.rss, end.rss);
    const heapGrowth = growth(warm.heapUsed, end.heapUsed);
    const mib = (bytes: number) => round(bytes / MiB);
    // Single readings move by about a MiB either way; the slope over every reading from the end of the
    // warm-up on says whether memory grows with time.
    const sinceWarm = afterGc.slice(afterGc.indexOf(warm));
    const heapTrend = round(slopePerMinute(sinceWarm.map((reading) => [reading.atSeconds, reading.heapUsed / MiB])), 2);
    const rssTrend = round(slopePerMinute(sinceWarm.map((reading) => [reading.atSeconds, reading.rss / MiB])), 2);
    const signed = (value: number) => `${value >= 0 ? "+" : ""}${value}`;
    return {
      summary: [
        `(e) soak, ${soakConnections} connections over ${soakSessions} sessions for ${soakSeconds} s:` +
          ` ${answered} requests (${SOAKED_PATHS.join(" and ")} in turn), ${failures} failed` +
          (failures > 0 ? " (every request must succeed: NOT met)" : ""),
        `    resident memory after a forced GC: ${mib(warm.rss)} MiB after ${warmUp} s, ${mib(end.rss)} MiB at the end:` +
          ` ${signed(rssGrowth)} % after warm-up (target < 20 %); ${mib(startRss)} MiB before the load`,
        `    heap after a forced GC: ${mib(warm.heapUsed)} MiB after ${warmUp} s, ${mib(end.heapUsed)} MiB at the end:` +
          ` ${signed(heapGrowth)} % (target: no growth); compiled code ${mib(warm.codeSpace)} → ${mib(end.codeSpace)} MiB`,
        `    trend from the end of the warm-up (least squares over ${sinceWarm.length} readings): heap ${signed(heapTrend)} MiB,` +
          ` resident ${signed(rssTrend)} MiB a minute`,
        `    after each round (MiB), heap / resident: ` +
          afterGc.map((reading) => `${mib(reading.heapUsed)} / ${mib(reading.rss)}`).join(", "),
      ],
      results: {
        connections: soakConnections,
        sessions: soakSessions,
        seconds: soakSeconds,
        warmUpSeconds: warmUp,
        requests: answered,
        failures,
        rssBeforeLoadMiB: mib(startRss),
        afterGcMiB: afterGc.map((reading) => ({ heap: mib(reading.heapUsed), code: mib(reading.codeSpace), rss: mib(reading.rss) })),
        rssGrowthPercent: rssGrowth,
        heapGrowthPercent: heapGrowth,
        trendMiBPerMinute: { heap: heapTrend, rss: rssTrend },
        target: { rssGrowthPercent: 20, heapGrowthPercent: 0 },
      },
    };
  },
};

/** The least-squares slope of `points` ([seconds, MiB]), in MiB a minute (0 for fewer than two points). */
function slopePerMinute(points: readonly (readonly [number, number])[]): number {
  if (points.length < 2) return 0;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return variance === 0 ? 0 : (covariance / variance) * 60;
}
