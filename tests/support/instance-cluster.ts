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
  /** The JSON lines each instance logged at or after `isoTime` (warnings and errors), headed by its name. */
  loggedSince(isoTime: string): string;
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
    // Warnings too (a 503's cause, a refresh that failed): kept by each instance, printed when a test fails.
    logLevel: "warn",
  });
  try {
    // The first start builds when sources changed; the others then reuse that build. Each is kept as soon
    // as it runs, so that a later one failing to start still stops it.
    for (const name of ["A", "B", "C"]) instances.push(await startDashboardInstance(name, env, name === "A" ? 15 * 60_000 : 120_000));
  } catch (error) {
    await stop();
    throw error;
  }
  const loggedSince = (isoTime: string) =>
    instances
      .map((instance) => {
        const lines = instance
          .output()
          .split("\n")
          .filter((line) => (/"time":"([^"]+)"/.exec(line)?.[1] ?? "") >= isoTime);
        return `== instance ${instance.name}\n${lines.join("\n")}`;
      })
      .join("\n");
  return { redis, sandbox, proxy, instances, loggedSince, stop };
}
