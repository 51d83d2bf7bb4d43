/**
 * The set-up of the multi-instance suites (docs/architecture.md section 8): a real redis-server, the
 * sandbox with `knobs`, three production dashboard processes (A, B, C) sharing one SESSION_SECRET and
 * that Redis under `redisPrefix`, and a round-robin proxy in front whose origin is APP_URL.
 */
import type { KnobsPatch } from "@/sandbox/knobs";
import { startSandbox, type RunningSandbox } from "@/sandbox/server";

import { sharedInstanceEnvironment, startDashboardInstance, type DashboardInstance } from "./dashboard-instances";
import { RedisServer } from "./redis-server";
import { RoundRobinProxy } from "./round-robin-proxy";

export interface InstanceCluster {
  redis: RedisServer;
  sandbox: RunningSandbox;
  proxy: RoundRobinProxy;
  /** A, B and C, in that order. */
  instances: DashboardInstance[];
  stop(): Promise<void>;
}

export async function startInstanceCluster(options: { knobs: KnobsPatch; redisPrefix: string }): Promise<InstanceCluster> {
  const instances: DashboardInstance[] = [];
  const redis = await RedisServer.start();
  const proxy = await RoundRobinProxy.start(() => instances.map((instance) => instance.port));
  const sandbox = await startSandbox({ port: 0, dashboardRedirectUris: [`${proxy.url}/api/auth/callback`], knobs: options.knobs });
  const stop = async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await proxy.close();
    await sandbox.close();
    await redis.stop();
  };
  const env = sharedInstanceEnvironment({
    siteUrl: sandbox.url,
    appUrl: proxy.url,
    shared: { REDIS_URL: redis.url },
    redisPrefix: options.redisPrefix,
    logLevel: "error",
  });
  try {
    // The first start builds when sources changed; the others then reuse that build. Each is kept as soon
    // as it runs, so that a later one failing to start still stops it.
    for (const name of ["A", "B", "C"]) instances.push(await startDashboardInstance(name, env, name === "A" ? 15 * 60_000 : 120_000));
  } catch (error) {
    await stop();
    throw error;
  }
  return { redis, sandbox, proxy, instances, stop };
}
