import "server-only";

import { createHash, timingSafeEqual } from "node:crypto";

import { metricsRegistry } from "./registry";

/** The Prometheus text exposition of every metric of this process. */
export async function metricsExposition(): Promise<{ body: string; contentType: string }> {
  return { body: await metricsRegistry.metrics(), contentType: metricsRegistry.contentType };
}

/**
 * True when `authorization` is `Bearer <token>` with the configured METRICS_TOKEN. Both sides are hashed to the
 * same length first, then compared in constant time (OWASP ASVS 5 V11.2: no timing oracle on a secret).
 * No configured token accepts nothing.
 */
export function isAuthorizedScrape(authorization: string | null, token: string | undefined): boolean {
  if (token === undefined || authorization === null) return false;
  const match = /^Bearer ([\x21-\x7e]+)$/i.exec(authorization.trim());
  if (!match) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}
