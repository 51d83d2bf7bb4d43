import "server-only";

import * as oauth from "oauth4webapi";

import { siteRequestOptions } from "@/lib/site/oauth-http";
import { getConfig } from "@/lib/config";
import { getSharedState } from "@/lib/session/shared-state";

/** A site check is reused for at most this long, so a load balancer's probes do not become the site's load. */
export const SITE_CHECK_TTL_MS = 30_000;
/** A probe answers within this bound even when a dependency hangs. */
export const READINESS_TIMEOUT_MS = 3_000;

export type DependencyName = "site" | "redis";
export type DependencyState = "ok" | "failing" | "not_configured";

export interface Readiness {
  ready: boolean;
  dependencies: Record<DependencyName, DependencyState>;
  /** The failing dependencies' names; never a URL, which for Redis may hold its password. */
  failing: DependencyName[];
}

let siteCheck: { checkedAt: number; result: Promise<boolean> } | undefined;

/** The site's RFC 8414 metadata answers and names SITE_URL as its issuer (the same checks sign-in relies on). */
async function siteAnswers(): Promise<boolean> {
  const issuer = new URL(getConfig().siteUrl);
  try {
    const response = await oauth.discoveryRequest(issuer, {
      ...siteRequestOptions(),
      algorithm: "oauth2",
      signal: AbortSignal.timeout(READINESS_TIMEOUT_MS),
    });
    await oauth.processDiscoveryResponse(issuer, response);
    return true;
  } catch {
    return false;
  }
}

function checkSite(now: number): Promise<boolean> {
  if (siteCheck && now - siteCheck.checkedAt < SITE_CHECK_TTL_MS) return siteCheck.result;
  siteCheck = { checkedAt: now, result: siteAnswers() };
  return siteCheck.result;
}

async function redisAnswers(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("Redis did not answer PING in time")), READINESS_TIMEOUT_MS);
  });
  try {
    await Promise.race([getSharedState().ping(), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness (docs/architecture.md section 4): the site's metadata answers and, when REDIS_URL or REDIS_SENTINELS
 * is set, Redis answers a read (with Sentinel: the current primary, so an instance is not ready during a failover).
 */
export async function checkReadiness(now = Date.now()): Promise<Readiness> {
  const { redisUrl, redisSentinel } = getConfig();
  const redisConfigured = redisUrl !== undefined || redisSentinel !== undefined;
  const [site, redis] = await Promise.all([checkSite(now), redisConfigured ? redisAnswers() : Promise.resolve(undefined)]);
  const dependencies: Record<DependencyName, DependencyState> = {
    site: site ? "ok" : "failing",
    redis: redis === undefined ? "not_configured" : redis ? "ok" : "failing",
  };
  const failing = (Object.keys(dependencies) as DependencyName[]).filter((name) => dependencies[name] === "failing");
  return { ready: failing.length === 0, dependencies, failing };
}

/** Tests only. */
export function resetReadinessForTests(): void {
  siteCheck = undefined;
}
