import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { SESSION_IDLE_LIFETIME_MS } from "@/lib/session/session";
import { type RunningSandbox } from "@/sandbox/server";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, signInThroughRoutes } from "../support/route-browser";

const HOUR_MS = 60 * 60 * 1000;

let sandbox: RunningSandbox;

beforeAll(async () => {
  // Access tokens that outlive the test's two days: no refresh writes the session back on its own, so
  // only the request's activity can.
  sandbox = await startSandboxForDashboard({ accessTokenTtlSeconds: 3 * 24 * 60 * 60 });
});
afterAll(async () => sandbox.close());
afterEach(() => vi.useRealTimers());

/** The clock of this process (the dashboard's and the in-process sandbox's), moved to `at`. */
function clockAt(at: number): void {
  vi.useFakeTimers({ toFake: ["Date"], now: at });
}

// OWASP ASVS 5 V7.3.1: the idle lifetime counts from the member's last request, not from the sign-in.
describe("a member who keeps using the dashboard stays signed in past the idle lifetime", () => {
  it.each([
    [
      "a data request",
      (browser: RouteBrowser) =>
        accountRoute(browser.request("/api/account/courses"), { params: Promise.resolve({ resource: "courses" }) }),
    ],
    ["GET /api/session", (browser: RouteBrowser) => sessionRoute(browser.request("/api/session"))],
  ])("%s writes its activity back", async (_name, request) => {
    const signedInAt = Date.now();
    const browser = new RouteBrowser();
    await signInThroughRoutes(browser);
    // A request near the end of the idle lifetime.
    clockAt(signedInAt + SESSION_IDLE_LIFETIME_MS - HOUR_MS);
    expect(browser.absorb(await request(browser)).status).toBe(200);
    // A whole idle lifetime after signing in, but only two hours after that request: still signed in.
    clockAt(signedInAt + SESSION_IDLE_LIFETIME_MS + HOUR_MS);
    expect(browser.absorb(await sessionRoute(browser.request("/api/session"))).status).toBe(200);
    // Then idle for longer than the lifetime: signed out.
    clockAt(signedInAt + 2 * SESSION_IDLE_LIFETIME_MS + 2 * HOUR_MS);
    expect((await sessionRoute(browser.request("/api/session"))).status).toBe(401);
  });
});
