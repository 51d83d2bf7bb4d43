/**
 * One request at a time (docs/architecture.md section 9; README, Speed): the dashboard's own share of
 * a data request, p50, at most 1 ms. It is what GET /api/account/courses (the BFF data route) adds to
 * the same GraphQL operation sent straight to the site with the same member's token, minus what Next.js
 * adds to a route that does nothing: GET /api/health against a plain node:http server, in the same
 * interleaved rounds. Every side is timed once it has served WARM_UP_REQUESTS (a server in service); a
 * fresh process's first rounds are printed beside.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";

import { COURSES_DOCUMENT, COURSES_PAGE_SIZE } from "../../lib/account-api/pages/courses";
import { round, type BenchContext, type BenchSection } from "./context";
import { percentile } from "./load";
import { progress } from "./progress";

export const DATA_ROUTE_PATH = "/api/account/courses";

/** The restated goal: the dashboard's own share of a data request, one at a time, p50. */
export const OWN_SHARE_TARGET_MS = 1;

/** Rounds of a fresh process left out of its figure: the connections to open, the first compilations. */
const FIRST_ROUNDS_LEFT_OUT = 5;
/**
 * Requests each side serves before its steady figure is timed, WARM_UP_CONNECTIONS at a time. V8 runs a
 * fresh process's code in its interpreter and baseline tiers and optimizes what runs often: the data
 * route's own time before and after its call to the site settles after 600 to 800 requests
 * (docs/performance.md, Measuring). A server in service is past that within its first minute.
 */
const WARM_UP_REQUESTS = 1_000;
const WARM_UP_CONNECTIONS = 10;

async function timed(run: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await run();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`benchmark request failed with ${response.status}`);
  return performance.now() - started;
}

export function directCoursesRequest(context: BenchContext): {
  url: string;
  init: RequestInit & { body: string; headers: Record<string, string> };
} {
  return {
    url: `${context.target.siteUrl}/account/graphql`,
    init: {
      method: "POST",
      headers: { authorization: `Bearer ${context.directToken}`, "content-type": "application/json" },
      body: JSON.stringify({ query: COURSES_DOCUMENT, variables: { first: COURSES_PAGE_SIZE, after: null } }),
    },
  };
}

/**
 * A plain node:http server in its own process, answering the same small JSON as `/api/health`: what
 * any Node server costs a request (parsing, one write, the hop between processes). `/api/health`
 * minus this is what Next.js itself adds to every request it routes.
 */
async function startPlainServer(): Promise<{ url: string; stop: () => void }> {
  const program = `
    const server = require("node:http").createServer((request, response) => {
      response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      response.end('{"ok":true}');
    });
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ["-e", program], { stdio: ["ignore", "pipe", "inherit"] });
  const [port] = (await once(child.stdout, "data")) as [Buffer];
  return { url: `http://127.0.0.1:${port.toString().trim()}/`, stop: () => child.kill() };
}

interface Latencies {
  route: number;
  direct: number;
  /** `/api/health`: a Next.js route that calls nothing. */
  floor: number;
  /** A plain node:http server answering the same. */
  plain: number;
}

type Side = keyof Latencies;

/** `rounds` interleaved rounds of every side, one request at a time; the median of each side. */
async function timeRounds(
  sides: Record<Side, () => Promise<Response>>,
  rounds: number,
  leftOut: number,
  label: string,
): Promise<Latencies> {
  const times: Record<Side, number[]> = { route: [], direct: [], floor: [], plain: [] };
  const total = rounds + leftOut;
  for (let index = 0; index < total; index += 1) {
    if ((index + 1) % 20 === 0 || index + 1 === total) progress(label, index + 1, total);
    // Alternating which goes first, so drift and ordering effects cancel.
    const pair =
      index % 2 === 0
        ? [await timed(sides.route), await timed(sides.direct)]
        : [await timed(sides.direct), await timed(sides.route)].reverse();
    const floor = await timed(sides.floor);
    const bare = await timed(sides.plain);
    if (index < leftOut) continue;
    times.route.push(pair[0]!);
    times.direct.push(pair[1]!);
    times.floor.push(floor);
    times.plain.push(bare);
  }
  return {
    route: percentile(times.route, 0.5),
    direct: percentile(times.direct, 0.5),
    floor: percentile(times.floor, 0.5),
    plain: percentile(times.plain, 0.5),
  };
}

/** WARM_UP_REQUESTS of every side, WARM_UP_CONNECTIONS at a time, untimed. */
async function warmUp(sides: Record<Side, () => Promise<Response>>): Promise<void> {
  for (const [index, send] of Object.values(sides).entries()) {
    progress(`warm-up, ${WARM_UP_REQUESTS.toLocaleString("en")} requests per side`, index + 1, Object.keys(sides).length, "side");
    let sent = 0;
    await Promise.all(
      Array.from({ length: WARM_UP_CONNECTIONS }, async () => {
        while (sent < WARM_UP_REQUESTS) {
          sent += 1;
          await timed(send);
        }
      }),
    );
  }
}

/** The dashboard's own share: what the data route adds to the direct call, minus what Next.js adds to a route that does nothing. */
function ownShare(latency: Latencies): number {
  return latency.route - latency.direct - (latency.floor - latency.plain);
}

async function measureLatency(context: BenchContext): Promise<{ fresh: Latencies; steady: Latencies }> {
  const { appUrlIPv4 } = context.target;
  const direct = directCoursesRequest(context);
  const plainServer = await startPlainServer();
  const sides: Record<Side, () => Promise<Response>> = {
    route: () => fetch(`${appUrlIPv4}${DATA_ROUTE_PATH}`, { headers: { cookie: context.member.header() } }),
    direct: () => fetch(direct.url, direct.init),
    floor: () => fetch(`${appUrlIPv4}/api/health`),
    plain: () => fetch(plainServer.url),
  };
  try {
    const fresh = await timeRounds(sides, context.options.rounds, FIRST_ROUNDS_LEFT_OUT, "one request at a time, fresh process");
    await warmUp(sides);
    const steady = await timeRounds(sides, context.options.rounds, 0, "one request at a time, after the warm-up");
    return { fresh, steady };
  } finally {
    plainServer.stop();
  }
}

export const sequentialLatency: BenchSection = {
  name: "latency",
  title: "one request at a time: the dashboard's own share of a data request",
  enabled: () => true,
  async run(context) {
    const { fresh, steady } = await measureLatency(context);
    const share = round(ownShare(steady), 2);
    const nextJsShare = round(steady.floor - steady.plain, 2);
    const verdict = share <= OWN_SHARE_TARGET_MS ? "met" : "NOT met";
    return {
      summary: [
        `one request at a time, after ${WARM_UP_REQUESTS.toLocaleString("en")} requests per side, p50: the dashboard's own share` +
          ` ${share} ms (target <= ${OWN_SHARE_TARGET_MS} ms: ${verdict})`,
        `    data route ${round(steady.route, 2)} ms, the same operation straight to the site ${round(steady.direct, 2)} ms` +
          ` (${round(steady.route / steady.direct, 3)}); /api/health ${round(steady.floor, 2)} ms, a plain node:http server` +
          ` ${round(steady.plain, 2)} ms: Next.js's own ${nextJsShare} ms`,
        `    a fresh process, its first ${context.options.rounds} rounds: own share ${round(ownShare(fresh), 2)} ms` +
          ` (data route ${round(fresh.route, 2)} ms, direct ${round(fresh.direct, 2)} ms; V8 has not optimized its code yet)`,
      ],
      results: {
        rounds: context.options.rounds,
        warmUpRequestsPerSide: WARM_UP_REQUESTS,
        ownShareMs: share,
        target: { ownShareMs: OWN_SHARE_TARGET_MS },
        met: share <= OWN_SHARE_TARGET_MS,
        medianMs: {
          route: round(steady.route, 2),
          direct: round(steady.direct, 2),
          health: round(steady.floor, 2),
          plain: round(steady.plain, 2),
        },
        nextJsShareMs: nextJsShare,
        freshProcess: {
          ownShareMs: round(ownShare(fresh), 2),
          routeMedianMs: round(fresh.route, 2),
          directMedianMs: round(fresh.direct, 2),
        },
      },
    };
  },
};
