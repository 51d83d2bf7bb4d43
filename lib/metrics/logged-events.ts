import "server-only";

import {
  boundedLabel,
  httpRequestDuration,
  httpRequests,
  pageViewDuration,
  pageViews,
  sessionsEnded,
  sharedStateErrors,
  signInsStarted,
  signInsSucceeded,
  siteCallFailures,
} from "./registry";

/**
 * Counts what the dashboard's named log events say happened (lib/log/logger.ts calls this for every event,
 * whatever LOG_LEVEL prints): BFF requests, member page views, sign-ins started and succeeded, failed calls to the site, a lost
 * shared-state connection, sign-outs and revocations. What no event says exactly is counted where it happens
 * (lib/metrics/record.ts).
 */
export function countLoggedEvent(event: string, fields: Readonly<Record<string, unknown>>): void {
  switch (event) {
    case "request": {
      const route = boundedLabel(fields.route);
      const method = boundedLabel(fields.method);
      httpRequests.labels(route, method, boundedLabel(fields.status)).inc();
      if (typeof fields.durationMs === "number") httpRequestDuration.labels(route, method).observe(fields.durationMs / 1000);
      return;
    }
    case "page_view": {
      const page = boundedLabel(fields.page);
      pageViews.labels(page, boundedLabel(fields.navigation), boundedLabel(fields.outcome)).inc();
      if (typeof fields.durationMs === "number") pageViewDuration.labels(page).observe(fields.durationMs / 1000);
      return;
    }
    case "sign_in_started":
      signInsStarted.inc();
      return;
    case "sign_in_succeeded":
      signInsSucceeded.inc();
      return;
    case "site_error":
      countSiteFailure(fields);
      return;
    case "shared_state_error":
      // A failed operation is counted where Redis is asked (lib/metrics/record.ts); here, the lost connection and a full memory store.
      if (fields.state === "connection_lost") sharedStateErrors.labels("connection").inc();
      else if (fields.reason === "capacity") sharedStateErrors.labels("capacity").inc();
      return;
    case "signed_out":
      if (fields.hadSession === true) sessionsEnded.labels("sign_out").inc(sessionCount(fields));
      return;
    case "access_revoked":
      sessionsEnded.labels("revoke").inc(sessionCount(fields));
      return;
  }
}

/** How many sessions a sign-out or revocation ended: the browser's top-level and embedded ones (`sessions`), else one. */
function sessionCount(fields: Readonly<Record<string, unknown>>): number {
  const { sessions } = fields;
  return typeof sessions === "number" && Number.isInteger(sessions) && sessions >= 1 && sessions <= 10 ? sessions : 1;
}

/**
 * A failed call: site-fetch logs one `site_error` with kind and reason for a call that got no readable answer;
 * a route that failed on the site's error answer logs one with the site's status (lib/http/error-responses.ts).
 * A route's line about a call that got no answer (no status) repeats the first and is not counted again.
 */
function countSiteFailure(fields: Readonly<Record<string, unknown>>): void {
  if (typeof fields.kind === "string" && typeof fields.reason === "string") {
    siteCallFailures.labels(boundedLabel(fields.kind), boundedLabel(fields.reason)).inc();
    return;
  }
  if (typeof fields.siteStatus === "number" && fields.siteStatus >= 400) {
    const kind = typeof fields.endpoint === "string" && fields.endpoint.startsWith("graphql ") ? "graphql" : "oauth";
    siteCallFailures.labels(kind, fields.siteStatus >= 500 ? "status_5xx" : "status_4xx").inc();
  }
}
