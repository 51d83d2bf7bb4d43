import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { GET as health } from "@/app/api/health/route";
import { GET as ready } from "@/app/api/ready/route";
import { resetConfigForTests } from "@/lib/config";
import { checkReadiness, READINESS_TIMEOUT_MS, resetReadinessForTests, SITE_CHECK_TTL_MS } from "@/lib/http/readiness";
import { InMemorySharedState, setSharedStateForTests } from "@/lib/session/shared-state";
import { type RunningSandbox } from "@/sandbox/server";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser } from "../support/route-browser";

/** A Redis that does not answer: its PING fails, or never returns. */
class RedisDown extends InMemorySharedState {
  constructor(private readonly failure: "refused" | "hangs") {
    super();
  }

  override ping(): Promise<void> {
    return this.failure === "refused"
      ? Promise.reject(new Error("connect ECONNREFUSED 10.0.0.9:6379"))
      : new Promise<void>(() => undefined);
  }
}

describe("readiness and liveness", () => {
  let sandbox: RunningSandbox;
  const browser = new RouteBrowser();

  beforeAll(async () => {
    sandbox = await startSandboxForDashboard();
  });
  afterAll(async () => sandbox.close());
  afterEach(() => {
    resetReadinessForTests();
    sandbox.setKnobs({ failures: { discovery: null } });
    delete process.env.REDIS_URL;
    resetConfigForTests();
    setSharedStateForTests(new InMemorySharedState());
  });

  const discoveryCalls = () => sandbox.requests().filter((entry) => entry.endpoint === "discovery").length;

  it("is ready when the site's metadata answers; Redis is not checked when REDIS_URL is unset", async () => {
    const answer = await ready(browser.request("/api/ready"));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ready: true, dependencies: { site: "ok", redis: "not_configured" }, failing: [] });
  });

  it("answers 503 naming the site when its metadata fails, while /api/health stays 200 without calling it", async () => {
    sandbox.setKnobs({ failures: { discovery: { mode: "status", status: 503 } } });
    const answer = await ready(browser.request("/api/ready"));
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({ ready: false, failing: ["site"], dependencies: { site: "failing" } });
    sandbox.resetRequests();
    expect((await health(browser.request("/api/health"))).status).toBe(200);
    expect(sandbox.requests()).toHaveLength(0);
  });

  it("reuses a site check for at most 30 seconds", async () => {
    const start = Date.now();
    sandbox.resetRequests();
    expect((await checkReadiness(start)).ready).toBe(true);
    expect((await checkReadiness(start + SITE_CHECK_TTL_MS - 1)).ready).toBe(true);
    expect(discoveryCalls()).toBe(1);
    sandbox.setKnobs({ failures: { discovery: { mode: "status", status: 503 } } });
    expect(await checkReadiness(start + SITE_CHECK_TTL_MS)).toMatchObject({ ready: false, failing: ["site"] });
    expect(discoveryCalls()).toBe(2);
  });

  it("with REDIS_URL, answers 503 naming Redis when it refuses PING, never echoing its URL", async () => {
    process.env.REDIS_URL = "rediss://:redis-password-123@10.0.0.9:6379";
    resetConfigForTests();
    expect((await ready(browser.request("/api/ready"))).status).toBe(200);
    setSharedStateForTests(new RedisDown("refused"));
    const answer = await ready(browser.request("/api/ready"));
    expect(answer.status).toBe(503);
    const text = await answer.text();
    expect(JSON.parse(text)).toEqual({ ready: false, dependencies: { site: "ok", redis: "failing" }, failing: ["redis"] });
    expect(text).not.toContain("redis-password-123");
    expect(text).not.toContain("10.0.0.9");
  });

  it("answers within its bound when Redis hangs", async () => {
    process.env.REDIS_URL = "rediss://cache.internal:6380";
    resetConfigForTests();
    setSharedStateForTests(new RedisDown("hangs"));
    const started = Date.now();
    expect((await ready(browser.request("/api/ready"))).status).toBe(503);
    expect(Date.now() - started).toBeLessThan(READINESS_TIMEOUT_MS + 5_000);
  });
});
