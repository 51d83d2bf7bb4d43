/**
 * The metrics, scraped by a real Prometheus (Debian's, README "Metrics"): a production dashboard (the README's run
 * command, built once) against the sandbox, with METRICS_PORT on loopback and METRICS_TOKEN for /api/metrics.
 * Prometheus scrapes both every second with the scrape configuration of the README and loads
 * deploy/prometheus/alerts.yml; a sign-in, a refresh and failures are driven over HTTP, and the series are
 * read back through Prometheus's HTTP API. `promtool check metrics` accepts the exposition.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type RunningSandbox } from "@/sandbox/server";
import { SEEDED_DASHBOARD_CLIENT } from "@/sandbox/seed";

import { startDashboardInstance, type DashboardInstance } from "../support/dashboard-instances";
import { signInOverHttp } from "../support/http-browser";
import { PrometheusServer, valueOf, type PromSample } from "../support/prometheus-server";
import { freePorts } from "../support/free-port";
import { untilRenewalIsDue } from "../support/renewal-wait";

const alertsFile = path.resolve(import.meta.dirname, "..", "..", "deploy", "prometheus", "alerts.yml");
const METRICS_TOKEN = randomBytes(32).toString("base64url");

const ACCESS_TOKEN_TTL_SECONDS = 10;

let sandbox: RunningSandbox;
let dashboard: DashboardInstance;
let prometheus: PrometheusServer;
let metricsPort: number;

beforeAll(async () => {
  const [appPort, metrics] = (await freePorts(2)) as [number, number];
  metricsPort = metrics;
  const appUrl = `http://127.0.0.1:${appPort}`;
  // Access tokens due for renewal 5 s after they are issued: a data request after that refreshes.
  sandbox = await startSandbox({
    port: 0,
    dashboardRedirectUris: [`${appUrl}/api/auth/callback`],
    knobs: { accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS },
  });
  dashboard = await startDashboardInstance(
    "metrics",
    {
      SITE_URL: sandbox.url,
      OAUTH_CLIENT_ID: SEEDED_DASHBOARD_CLIENT.clientId,
      OAUTH_CLIENT_SECRET: SEEDED_DASHBOARD_CLIENT.clientSecret,
      APP_URL: appUrl,
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: "127.0.0.1",
      METRICS_TOKEN,
      LOG_LEVEL: "error",
    },
    15 * 60_000,
    appPort,
  );
  prometheus = await PrometheusServer.start(
    (directory) => `
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - ${alertsFile}
scrape_configs:
  - job_name: dashboard
    static_configs:
      - targets: ["127.0.0.1:${metricsPort}"]
  - job_name: dashboard-bearer
    metrics_path: /api/metrics
    authorization:
      credentials_file: ${path.join(directory, "metrics-token")}
    static_configs:
      - targets: ["127.0.0.1:${appPort}"]
`,
    { "metrics-token": METRICS_TOKEN },
  );
}, 20 * 60_000);

afterAll(async () => {
  await prometheus?.stop();
  await dashboard?.stop();
  await sandbox?.close();
}, 60_000);

describe("metrics scraped by Prometheus", () => {
  it("scrapes the metrics port and, with the bearer token, /api/metrics; the members' port without it answers 404", async () => {
    await prometheus.waitFor('up{job="dashboard"} == 1', (samples) => samples.length === 1);
    await prometheus.waitFor('up{job="dashboard-bearer"} == 1', (samples) => samples.length === 1);
    expect((await fetch(`${dashboard.url}/api/metrics`)).status).toBe(404);
    expect((await fetch(`${dashboard.url}/api/metrics`, { headers: { authorization: "Bearer not-the-token" } })).status).toBe(404);
    // The default process metrics come along.
    expect(
      valueOf(await prometheus.waitFor('process_resident_memory_bytes{job="dashboard"}', (samples) => samples.length === 1)),
    ).toBeGreaterThan(0);
  });

  it("reads a sign-in, a refresh and failures back through Prometheus's HTTP API", async () => {
    const { browser, done } = await signInOverHttp(dashboard.url);
    expect(done.status).toBe(303);
    await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    expect((await browser.get(dashboard.url, "/api/account/courses")).status).toBe(200);
    // A page render refreshes in proxy.ts, bundled apart from the route handlers: it counts into the same registry.
    await untilRenewalIsDue(ACCESS_TOKEN_TTL_SECONDS);
    expect((await browser.get(dashboard.url, "/courses")).status).toBe(200);
    // A sign-in that fails (a callback of no sign-in), and a call the site fails.
    const refused = await browser.get(dashboard.url, "/api/auth/callback?code=unknown&state=unknown");
    const failedCode = new URL(refused.headers.get("location")!, dashboard.url).searchParams.get("code")!;
    sandbox.setKnobs({ failures: { graphql: { mode: "status", status: 500 } } });
    expect((await browser.get(dashboard.url, "/api/account/orders")).status).toBeGreaterThanOrEqual(500);
    sandbox.setKnobs({ failures: { graphql: null } });

    const job = '{job="dashboard"}';
    const atLeastOne = (samples: PromSample[]) => valueOf(samples) >= 1;
    await prometheus.waitFor(`sum(dashboard_sign_ins_started_total${job})`, atLeastOne);
    await prometheus.waitFor(`sum(dashboard_sign_ins_succeeded_total${job})`, atLeastOne);
    await prometheus.waitFor(`sum(dashboard_sign_ins_failed_total{job="dashboard",code="${failedCode}"})`, atLeastOne);
    await prometheus.waitFor('sum(dashboard_refreshes_total{job="dashboard",outcome="rotated"})', (samples) => valueOf(samples) >= 2);
    await prometheus.waitFor('sum(dashboard_refresh_lock_wait_seconds_count{job="dashboard"})', atLeastOne);
    await prometheus.waitFor('sum(dashboard_site_call_duration_seconds_count{job="dashboard",kind="oauth"})', atLeastOne);
    await prometheus.waitFor('sum(dashboard_site_call_duration_seconds_count{job="dashboard",kind="graphql"})', atLeastOne);
    await prometheus.waitFor('sum(dashboard_site_call_failures_total{job="dashboard",kind="graphql",reason="status_5xx"})', atLeastOne);
    await prometheus.waitFor('sum(dashboard_http_requests_total{job="dashboard",route="/api/auth/callback",status="303"})', atLeastOne);
    await prometheus.waitFor(
      'sum(dashboard_http_request_duration_seconds_count{job="dashboard",route="/api/account/[resource]"})',
      atLeastOne,
    );

    // Labels are bounded: route patterns, never a URL with its query.
    const routes = (await prometheus.query('count by (route) (dashboard_http_requests_total{job="dashboard"})')).map(
      (sample) => sample.metric.route,
    );
    expect(routes).toContain("/api/auth/callback");
    for (const route of routes) expect(route).not.toMatch(/[?=]/);

    // Ended by signing out.
    const origin = { origin: dashboard.url };
    expect((await browser.post(dashboard.url, "/api/auth/logout", origin.origin)).status).toBeLessThan(500);
    await prometheus.waitFor('sum(dashboard_sessions_ended_total{job="dashboard",reason="sign_out"})', atLeastOne);
    // Both jobs read the same process registry.
    await prometheus.waitFor('sum(dashboard_sessions_ended_total{job="dashboard-bearer",reason="sign_out"})', atLeastOne);
  });

  it("loads the alerting rules, and promtool accepts the exposition", async () => {
    const rules = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as {
      data: { groups: { rules: { name: string; health: string }[] }[] };
    };
    const loaded = rules.data.groups.flatMap((group) => group.rules);
    expect(loaded.map((rule) => rule.name)).toContain("DashboardNoSuccessfulSignIns");
    const exposition = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const check = spawnSync("promtool", ["check", "metrics"], { input: exposition, encoding: "utf8", timeout: 30_000 });
    expect(check.stdout + check.stderr).toBe("");
    expect(check.status).toBe(0);
  });
});
