import { spawnSync } from "node:child_process";
import type { AddressInfo } from "node:net";

import { beforeEach, describe, expect, it, vi } from "vitest";

import { GET as getMetricsRoute } from "@/app/api/metrics/route";
import { callWithMemberSession } from "@/lib/auth/member-session";
import { ensureFreshTokens } from "@/lib/auth/tokens";
import { resetConfigForTests } from "@/lib/config";
import { signInProblemRedirect } from "@/lib/http/auth-redirects";
import { AuthError } from "@/lib/auth/errors";
import { logEvent, logRequestLine, millisecondsSince } from "@/lib/log/logger";
import { isAuthorizedScrape } from "@/lib/metrics/exposition";
import { startMetricsServer } from "@/lib/metrics/metrics-server";
import {
  httpRequestDuration,
  httpRequests,
  metricsRegistry,
  refreshes,
  sessionsEnded,
  sharedStateErrors,
  signInsFailed,
  signInsStarted,
  siteCallDuration,
  siteCallFailures,
} from "@/lib/metrics/registry";
import { loadSession, saveSession, SESSION_ABSOLUTE_LIFETIME_MS, SESSION_IDLE_LIFETIME_MS } from "@/lib/session/session";
import { InMemorySharedState, setSharedStateForTests, SharedStateUnavailableError } from "@/lib/session/shared-state";
import { siteFetch } from "@/lib/site/site-fetch";
import { NextRequest } from "next/server";

import { captureLog } from "../../support/captured-log";
import { deltas } from "../../support/metric-deltas";
import { setUpDashboardOnFakeSite } from "../../support/dashboard-on-fake-site";
import { memoryJar } from "../../support/memory-jar";
import { expiringSession } from "../../support/session-fixture";

const site = setUpDashboardOnFakeSite();

let issued = 0;
beforeEach(() => {
  issued = 0;
  const live = new Set(["rt-0"]);
  site.handlers.set("POST /api/oauth/token", (call) => {
    const presented = (call.body as URLSearchParams).get("refresh_token")!;
    if (!live.delete(presented)) return { status: 400, json: { error: "invalid_grant" } };
    issued += 1;
    live.add(`rt-${issued}`);
    return { json: { access_token: `at-${issued}`, token_type: "Bearer", expires_in: 7200, refresh_token: `rt-${issued}` } };
  });
});

describe("metrics derived from the log events", () => {
  it("count every event whatever LOG_LEVEL prints: requests by route pattern and status, with durations", async () => {
    process.env.LOG_LEVEL = "error";
    const log = captureLog();
    try {
      const changed = await deltas(
        [
          [httpRequests, { route: "/api/session", method: "GET", status: "200" }],
          [httpRequestDuration, { route: "/api/session", method: "GET" }, "_count"],
          [signInsStarted, {}],
        ],
        () => {
          logRequestLine({ method: "GET", route: "/api/session", status: 200, durationMs: 12.5 }, "info");
          logEvent("sign_in_started", {}, "debug");
        },
      );
      expect(changed).toEqual([1, 1, 1]);
      expect(log.lines).toEqual([]);
    } finally {
      delete process.env.LOG_LEVEL;
      captureLog();
    }
  });

  it("give durations in milliseconds to a tenth, as the request and page-view lines print them", () => {
    const now = vi.spyOn(performance, "now").mockReturnValue(1_012.349);
    try {
      expect(millisecondsSince(1_000)).toBe(12.3);
      expect(millisecondsSince(1_012.3)).toBe(0);
      now.mockReturnValue(1_000.06);
      expect(millisecondsSince(1_000)).toBe(0.1);
    } finally {
      now.mockRestore();
    }
  });

  it("keep labels bounded: anything that is not a plain code becomes `other`", async () => {
    const [changed] = await deltas([[httpRequests, { route: "other", method: "GET", status: "200" }]], () => {
      logRequestLine({ method: "GET", route: "/api/account/courses?cursor=abc&code=secret", status: 200, durationMs: 1 });
    });
    expect(changed).toBe(1);
    const text = await metricsRegistry.metrics();
    expect(text).not.toContain("cursor=abc");
    expect(text).not.toContain("secret");
  });

  it("count sign-outs (with a session only) and revocations as sessions ended, each session the browser held", async () => {
    const changed = await deltas(
      [
        [sessionsEnded, { reason: "sign_out" }],
        [sessionsEnded, { reason: "revoke" }],
      ],
      () => {
        logEvent("signed_out", { hadSession: true, sessions: 2, revokedAtSite: true });
        logEvent("signed_out", { hadSession: false, sessions: 0, revokedAtSite: false });
        logEvent("access_revoked", { sessions: 1 });
      },
    );
    expect(changed).toEqual([2, 1]);
  });

  it("count a lost shared-state connection, not its recovery", async () => {
    const [changed] = await deltas([[sharedStateErrors, { operation: "connection" }]], () => {
      logEvent("shared_state_error", { state: "connection_lost", cause: "Error" }, "error");
      logEvent("shared_state_error", { state: "recovered" }, "info");
    });
    expect(changed).toBe(1);
  });

  it("count a failed call to the site once, by kind and reason, and an error answer by its status class", async () => {
    const changed = await deltas(
      [
        [siteCallFailures, { kind: "oauth", reason: "unreachable" }],
        [siteCallFailures, { kind: "graphql", reason: "status_5xx" }],
      ],
      async () => {
        await siteFetch("oauth", "http://127.0.0.1:1/api/oauth/token").catch(() => undefined);
        // The route's own line about that call (no status) is not counted again.
        logEvent("site_error", { errorCode: "site_unavailable", siteErrorCode: "ECONNREFUSED" }, "warn");
        logEvent("site_error", { errorCode: "query_failed", endpoint: "graphql Overview", siteStatus: 502 }, "warn");
      },
    );
    expect(changed).toEqual([1, 1]);
  });
});

describe("metrics counted where they happen", () => {
  it("time every call to the site by kind", async () => {
    site.handlers.set("GET /jwks-probe", () => ({ json: { keys: [] } }));
    const [changed] = await deltas([[siteCallDuration, { kind: "jwks" }, "_count"]], async () => {
      const response = await siteFetch("jwks", `${site.url}/jwks-probe`);
      await response.json();
    });
    expect(changed).toBe(1);
  });

  it("count a refresh as rotated, a late caller with the old token as joined, and a replay as grant gone", async () => {
    const rotated = await deltas([[refreshes, { outcome: "rotated" }]], () => ensureFreshTokens(expiringSession()));
    expect(rotated).toEqual([1]);
    const joined = await deltas([[refreshes, { outcome: "joined" }]], () => ensureFreshTokens(expiringSession()));
    expect(joined).toEqual([1]);
    setSharedStateForTests(new InMemorySharedState());
    const gone = await deltas(
      [
        [refreshes, { outcome: "grant_gone" }],
        [sessionsEnded, { reason: "grant_gone" }],
      ],
      async () => {
        const jar = memoryJar();
        await saveSession(jar, expiringSession());
        await expect(callWithMemberSession(jar, () => Promise.resolve("never"))).rejects.toMatchObject({ code: "unauthenticated" });
      },
    );
    expect(gone).toEqual([1, 1]);
  });

  it("count one refresh for parallel callers of one process, and observe the lock wait", async () => {
    const changed = await deltas(
      [
        [refreshes, { outcome: "rotated" }],
        [refreshes, { outcome: "joined" }],
      ],
      () => Promise.all(Array.from({ length: 5 }, () => ensureFreshTokens(expiringSession()))),
    );
    expect(changed).toEqual([1, 0]);
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(/^dashboard_refresh_lock_wait_seconds_count [1-9]\d*$/m);
  });

  it("count a refresh with the site down as site unavailable, and with the shared state down as shared state down", async () => {
    site.handlers.set("POST /api/oauth/token", () => ({ status: 503, json: { error: "temporarily_unavailable" } }));
    const down = await deltas([[refreshes, { outcome: "site_unavailable" }]], () =>
      ensureFreshTokens(expiringSession()).catch(() => undefined),
    );
    expect(down).toEqual([1]);
    class Down extends InMemorySharedState {
      override recall(): Promise<string | undefined> {
        return Promise.reject(new SharedStateUnavailableError("Redis did not answer (recall)."));
      }
    }
    setSharedStateForTests(new Down());
    const stateDown = await deltas([[refreshes, { outcome: "shared_state_down" }]], () =>
      ensureFreshTokens(expiringSession()).catch(() => undefined),
    );
    expect(stateDown).toEqual([1]);
  });

  it("count sessions past their absolute and idle lifetimes when a request brings them", async () => {
    const now = Date.now();
    const changed = await deltas(
      [
        [sessionsEnded, { reason: "absolute" }],
        [sessionsEnded, { reason: "idle" }],
      ],
      async () => {
        const old = memoryJar();
        await saveSession(old, expiringSession({ createdAt: now - SESSION_ABSOLUTE_LIFETIME_MS - 1, lastSeenAt: now }));
        expect(await loadSession(old, now)).toBeNull();
        const idle = memoryJar();
        await saveSession(idle, expiringSession({ createdAt: now - 1000, lastSeenAt: now - 1000 }));
        expect(await loadSession(idle, now + SESSION_IDLE_LIFETIME_MS)).toBeNull();
      },
    );
    expect(changed).toEqual([1, 1]);
  });

  it("count a failed sign-in by its error code", async () => {
    const [changed] = await deltas([[signInsFailed, { code: "login_state_mismatch" }]], () => {
      signInProblemRedirect(new AuthError("login_state_mismatch", "state differs"));
    });
    expect(changed).toBe(1);
  });
});

describe("the metrics endpoint on the app's port", () => {
  const token = "metrics-token-0123456789abcdef0123456789";
  const scrape = (authorization?: string) =>
    getMetricsRoute(new NextRequest("http://localhost:3999/api/metrics", { headers: authorization ? { authorization } : {} }));

  it("is not there without METRICS_TOKEN, even for a bearer", async () => {
    delete process.env.METRICS_TOKEN;
    resetConfigForTests();
    expect((await scrape()).status).toBe(404);
    expect((await scrape(`Bearer ${token}`)).status).toBe(404);
  });

  it("answers the Prometheus exposition only to the configured bearer token", async () => {
    process.env.METRICS_TOKEN = token;
    resetConfigForTests();
    try {
      expect((await scrape()).status).toBe(404);
      expect((await scrape(`Bearer ${token}x`)).status).toBe(404);
      expect((await scrape(`Basic ${token}`)).status).toBe(404);
      const response = await scrape(`Bearer ${token}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/plain");
      const text = await response.text();
      expect(text).toContain("# TYPE dashboard_sign_ins_started_total counter");
      expect(text).toContain("process_cpu_user_seconds_total");
    } finally {
      delete process.env.METRICS_TOKEN;
      resetConfigForTests();
    }
  });

  it("is an exposition Debian's `promtool check metrics` accepts without a remark", async () => {
    const check = spawnSync("promtool", ["check", "metrics"], {
      input: await metricsRegistry.metrics(),
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(check.stdout + check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it("compares the token whole", () => {
    expect(isAuthorizedScrape(`Bearer ${token}`, token)).toBe(true);
    expect(isAuthorizedScrape(`bearer ${token}`, token)).toBe(true);
    expect(isAuthorizedScrape(`Bearer ${token.slice(0, -1)}`, token)).toBe(false);
    expect(isAuthorizedScrape(`Bearer ${token}`, undefined)).toBe(false);
    expect(isAuthorizedScrape(null, token)).toBe(false);
    // The whole header is "Bearer <token>": nothing before it, nothing after, and not the token alone.
    for (const header of [`xBearer ${token}`, `Bearer ${token} junk`, token, `Basic ${token}`]) {
      expect(isAuthorizedScrape(header, token), header).toBe(false);
    }
  });
});

describe("the metrics port (METRICS_PORT)", () => {
  it("binds to the address given, says where in the log, serves GET /metrics only, and nothing else", async () => {
    const log = captureLog();
    const server = await startMetricsServer({ port: 0, host: "127.0.0.1" });
    try {
      const address = server.address() as AddressInfo;
      expect(address.address).toBe("127.0.0.1");
      // With METRICS_PORT=0 the port is the system's choice: the operator learns it from this line alone.
      expect(log.events()).toContainEqual(expect.objectContaining({ event: "metrics_listening", host: "127.0.0.1", port: address.port }));
      const base = `http://127.0.0.1:${address.port}`;
      const scraped = await fetch(`${base}/metrics`);
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get("content-type")).toContain("text/plain; version=0.0.4");
      expect(await scraped.text()).toContain("# TYPE dashboard_refreshes_total counter");
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/api/session`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(405);
      // A query does not change the path; HEAD is a GET without the body; nothing is cached.
      expect((await fetch(`${base}/metrics?x=1`)).status).toBe(200);
      const head = await fetch(`${base}/metrics`, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("cache-control")).toBe("no-store");
      expect(scraped.headers.get("cache-control")).toBe("no-store");
      // A collection that fails is a plain 500, never a stack trace.
      const failing = vi.spyOn(metricsRegistry, "metrics").mockRejectedValueOnce(new Error("a collector threw at /srv/app.js:1"));
      const failed = await fetch(`${base}/metrics`);
      failing.mockRestore();
      expect(failed.status).toBe(500);
      expect(await failed.text()).toBe("The metrics could not be collected.\n");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
