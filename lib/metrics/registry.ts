import "server-only";

import {
  collectDefaultMetrics,
  Counter,
  Histogram,
  register,
  type CounterConfiguration,
  type HistogramConfiguration,
  type Metric,
} from "prom-client";

/**
 * The dashboard's metrics (README, "Metrics"), in prom-client's registry. That registry is prom-client's own
 * module-level one: next.config.mjs lists prom-client in `serverExternalPackages`, so Node loads it once per
 * process and the proxy, the route handlers and instrumentation.ts (bundled separately) all count into it.
 * Each bundle gets or creates the same named metric there. Every label is bounded: a route pattern, a status,
 * a stable code or reason; never a URL, a member id or anything from a token.
 */
function metric<T extends Metric>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

function counter<T extends string>(configuration: CounterConfiguration<T>): Counter<T> {
  return metric(configuration.name, () => new Counter(configuration));
}

function histogram<T extends string>(configuration: HistogramConfiguration<T>): Histogram<T> {
  return metric(configuration.name, () => new Histogram(configuration));
}

/**
 * A counter of one label whose every value (a known, bounded list) is exported from the start at 0, so that
 * each series exists, and a rate or an alert over it reads 0, before its first event.
 */
function counterOfEvery<T extends string>(values: readonly string[], configuration: CounterConfiguration<T>): Counter<T> {
  return metric(configuration.name, () => {
    const created = new Counter(configuration);
    for (const value of values) created.labels(value).inc(0);
    return created;
  });
}

if (!register.getSingleMetric("process_cpu_user_seconds_total")) {
  collectDefaultMetrics({ register });
  // Gauges named like counters, which `promtool check metrics` refuses; `nodejs_active_handles` and the others
  // say the same by type.
  for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"]) {
    register.removeSingleMetric(name);
  }
}

const SECONDS_FAST = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = counter({
  name: "dashboard_http_requests_total",
  help: "BFF requests (app/api) by route pattern, method and status.",
  labelNames: ["route", "method", "status"],
});

export const httpRequestDuration = histogram({
  name: "dashboard_http_request_duration_seconds",
  help: "How long BFF requests (app/api) took, by route pattern and method.",
  labelNames: ["route", "method"],
  buckets: SECONDS_FAST,
});

export const pageViews = counter({
  name: "dashboard_page_views_total",
  help: "Member page renders (a document load or a tab click) by page and what it showed.",
  labelNames: ["page", "navigation", "outcome"],
});

export const pageViewDuration = histogram({
  name: "dashboard_page_view_duration_seconds",
  help: "How long member page renders took, from the render's start to the answer's end, by page.",
  labelNames: ["page"],
  buckets: SECONDS_FAST,
});

export const signInsStarted = counter({
  name: "dashboard_sign_ins_started_total",
  help: "Sign-ins sent to the site's authorization page.",
});

export const signInsSucceeded = counter({ name: "dashboard_sign_ins_succeeded_total", help: "Sign-ins that ended with a session." });

export const signInsFailed = counter({
  name: "dashboard_sign_ins_failed_total",
  help: "Sign-ins that failed (on the sign-in problem page, or at the embedded frame's handoff), by error code.",
  labelNames: ["code"],
});

export const REFRESH_OUTCOMES = [
  "rotated",
  "joined",
  "grant_gone",
  "site_unavailable",
  "lock_timeout",
  "shared_state_down",
  "failed",
] as const;
export type RefreshOutcome = (typeof REFRESH_OUTCOMES)[number];

export const refreshes = counterOfEvery(REFRESH_OUTCOMES, {
  name: "dashboard_refreshes_total",
  help: "Token refreshes by outcome: rotated at the site here, joined a refresh published by another, or why it failed.",
  labelNames: ["outcome"],
});

export const refreshLockWait = histogram({
  name: "dashboard_refresh_lock_wait_seconds",
  help: "How long a refresh waited for the refresh lock in the shared state.",
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
});

export const siteCallDuration = histogram({
  name: "dashboard_site_call_duration_seconds",
  help: "Calls to the site by kind (oauth, jwks, graphql, mcp): how long until the answer was read or the call failed.",
  labelNames: ["kind"],
  buckets: SECONDS_FAST,
});

export const siteCallFailures = counter({
  name: "dashboard_site_call_failures_total",
  help: "Calls to the site that failed, by kind and reason (timeout, too_large, unreachable, status_4xx, status_5xx).",
  labelNames: ["kind", "reason"],
});

export const sharedStateErrors = counter({
  name: "dashboard_shared_state_errors_total",
  help: "Shared state (Redis) operations that failed, by operation; `connection` when the connection was lost.",
  labelNames: ["operation"],
});

export const SESSION_END_REASONS = ["sign_out", "revoke", "idle", "absolute", "grant_gone"] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

export const sessionsEnded = counterOfEvery(SESSION_END_REASONS, {
  name: "dashboard_sessions_ended_total",
  help: "Sessions ended: sign_out, revoke, idle or absolute lifetime (seen on a request), grant_gone at the site.",
  labelNames: ["reason"],
});

/** A label value from our own code kept as it is; anything else (never expected) becomes `other`, so labels stay bounded. */
export function boundedLabel(value: unknown): string {
  const text = typeof value === "number" ? String(value) : value;
  return typeof text === "string" && /^[A-Za-z0-9_:/.[\]-]{1,64}$/.test(text) ? text : "other";
}

export { register as metricsRegistry };
