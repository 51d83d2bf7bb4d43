/**
 * What the shared state in Redis costs the data route (docs/architecture.md sections 8 and 9): two production
 * dashboard processes against one sandbox answering with added latency, one with the in-memory store and
 * one with REDIS_URL pointing at a redis-server on loopback, the same request sent to each in turn
 * (alternating which goes first) so machine drift cancels. Target: Redis adds at most 1 ms to the median.
 */
import { randomBytes } from "node:crypto";

import { SEEDED_DASHBOARD_CLIENT } from "../../../sandbox/seed";
import { startSandbox } from "../../../sandbox/server";
import { startDashboardInstance, type DashboardInstance } from "../../../tests/support/dashboard-instances";
import { freePort } from "../../../tests/support/free-port";
import { signInOverHttp, type HttpBrowser } from "../../../tests/support/http-browser";
import { RedisServer } from "../../../tests/support/redis-server";

import type { BenchSection } from "../context";

export interface SharedStateFigures {
  rounds: number;
  siteLatencyMs: number;
  inMemoryMedianMs: number;
  redisMedianMs: number;
  /** Redis median minus in-memory median. */
  addedMs: number;
  targetAddedMs: number;
}

const WARMUP = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timedDataRequest(instance: DashboardInstance, browser: HttpBrowser): Promise<number> {
  const started = performance.now();
  const response = await browser.get(instance.url, "/api/account/courses");
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the data route of the ${instance.name} instance answered ${response.status}`);
  return performance.now() - started;
}

/** Starts redis-server, a sandbox and the two dashboards, measures, and stops them all. */
export async function measureSharedStateOverhead(rounds: number, siteLatencyMs = 20): Promise<SharedStateFigures> {
  const redis = await RedisServer.start();
  const ports = [await freePort(), await freePort()] as const;
  const appUrls = ports.map((port) => `http://127.0.0.1:${port}`);
  const sandbox = await startSandbox({
    port: 0,
    dashboardRedirectUris: appUrls.map((url) => `${url}/api/auth/callback`),
    knobs: { latencyMs: siteLatencyMs },
  });
  const instances: DashboardInstance[] = [];
  try {
    const env = (appUrl: string, redisUrl: string) => ({
      SITE_URL: sandbox.url,
      OAUTH_CLIENT_ID: SEEDED_DASHBOARD_CLIENT.clientId,
      OAUTH_CLIENT_SECRET: SEEDED_DASHBOARD_CLIENT.clientSecret,
      APP_URL: appUrl,
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      REDIS_URL: redisUrl,
      LOG_LEVEL: "error",
    });
    instances.push(await startDashboardInstance("in-memory", env(appUrls[0]!, ""), 15 * 60_000, ports[0]));
    instances.push(await startDashboardInstance("redis", env(appUrls[1]!, redis.url), 120_000, ports[1]));
    const browsers = await Promise.all(instances.map(async (instance) => (await signInOverHttp(instance.url)).browser));
    const times: [number[], number[]] = [[], []];
    for (let round = 0; round < rounds + WARMUP; round += 1) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const index of order) {
        const elapsed = await timedDataRequest(instances[index]!, browsers[index]!);
        if (round >= WARMUP) times[index]!.push(elapsed);
      }
    }
    const inMemoryMedianMs = median(times[0]);
    const redisMedianMs = median(times[1]);
    return {
      rounds,
      siteLatencyMs,
      inMemoryMedianMs: Number(inMemoryMedianMs.toFixed(2)),
      redisMedianMs: Number(redisMedianMs.toFixed(2)),
      addedMs: Number((redisMedianMs - inMemoryMedianMs).toFixed(2)),
      targetAddedMs: 1,
    };
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
    await sandbox.close();
    await redis.stop();
  }
}

/** The bench section: in-memory store against Redis on loopback, in dashboards of their own. */
export const sharedStateOverhead: BenchSection = {
  name: "sharedState",
  title: "data route median with the in-memory store vs Redis on loopback (two extra dashboards)",
  enabled: () => true,
  async run(context) {
    const figures = await measureSharedStateOverhead(context.options.rounds);
    return {
      results: { ...figures },
      summary: [
        `(f) data route median, in-memory store vs Redis on loopback: ${figures.inMemoryMedianMs} ms vs ${figures.redisMedianMs} ms` +
          ` (Redis adds ${figures.addedMs} ms; target <= ${figures.targetAddedMs} ms)`,
      ],
    };
  },
};
