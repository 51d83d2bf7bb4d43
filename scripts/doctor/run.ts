/**
 * Runs the doctor: judges the site URL, takes one snapshot of the site and runs every check over it.
 * Everything comes from the caller (the command line); nothing reads the app's environment.
 */
import { API_ROUTES } from "../../lib/contract/paths";

import type { RedisNodeAddress } from "../../lib/config/env-schema";

import { checkIssuerSetting, checkSiteUrl, parseOrigin, runChecks } from "./checks";
import type { CheckResult } from "./checks";
import { takeSnapshot } from "./probe";
import { checkSentinels, probeSentinels } from "./redis-sentinel";

export const DEFAULT_APP_URL = "http://localhost:3000";
/** As the dashboard bounds its own requests to the site (lib/site/oauth-http.ts). */
export const DEFAULT_TIMEOUT_MS = 8_000;

export interface DoctorOptions {
  site: string;
  /** SITE_ISSUER: the site's issuer when its metadata writes it as the origin followed by "/". */
  issuer?: string | undefined;
  /** With a client_id, the authorization endpoint is probed with it and the redirect URI. */
  clientId?: string | undefined;
  /** The dashboard's public origin; must already be a valid origin (see `parseOrigin`). */
  appUrl?: string | undefined;
  timeoutMs?: number | undefined;
  /** REDIS_SENTINELS and REDIS_SENTINEL_NAME, when the dashboard will use Redis behind Sentinel. */
  redisSentinel?: { sentinels: RedisNodeAddress[]; name: string } | undefined;
}

export interface DoctorReport {
  /** The site URL as given, or its origin when it is well-formed. */
  site: string;
  redirectUri: string;
  checks: CheckResult[];
  /** Lines of information that are not checks. */
  info: string[];
}

export function redirectUriFor(appUrl: string): string {
  // docs/architecture.md section 3: the redirect URI is APP_URL + the callback route.
  return `${appUrl}${API_ROUTES.callback}`;
}

/** The dashboard's own operator settings, which no site check covers (README, Metrics). */
export function operatorSettingsNote(appUrl: string): string {
  return (
    `Metrics: set METRICS_PORT (bound to METRICS_HOST, default 127.0.0.1) or METRICS_TOKEN for ${appUrl}${API_ROUTES.metrics}; ` +
    "LOG_FORMAT=json for a log pipeline (default: human lines in a terminal)"
  );
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const appUrl = options.appUrl ?? DEFAULT_APP_URL;
  const redirectUri = redirectUriFor(appUrl);
  const info = [`Redirect URI to register: ${redirectUri}`, operatorSettingsNote(appUrl)];
  const siteCheck = checkSiteUrl(options.site);
  const parsed = parseOrigin(options.site);
  if (!parsed.ok) return { site: options.site, redirectUri, checks: [siteCheck], info };
  const issuerCheck = options.issuer === undefined ? undefined : checkIssuerSetting(parsed.origin, options.issuer);
  if (issuerCheck?.status === "FAIL") return { site: parsed.origin, redirectUri, checks: [siteCheck, issuerCheck], info };
  const snapshot = await takeSnapshot(parsed.origin, {
    issuer: options.issuer,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    clientId: options.clientId,
    redirectUri,
  });
  const checks = [siteCheck, ...(issuerCheck ? [issuerCheck] : []), ...runChecks(snapshot)];
  if (options.redisSentinel) {
    const { sentinels, name } = options.redisSentinel;
    checks.push(checkSentinels(await probeSentinels(sentinels, name, options.timeoutMs ?? DEFAULT_TIMEOUT_MS)));
  }
  return { site: parsed.origin, redirectUri, checks, info };
}

export function hasFailure(report: DoctorReport): boolean {
  return report.checks.some((check) => check.status === "FAIL");
}
