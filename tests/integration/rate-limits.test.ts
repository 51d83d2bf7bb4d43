import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as callbackRoute } from "@/app/api/auth/callback/route";
import { POST as embeddedRoute } from "@/app/api/auth/embedded/route";
import { GET as loginRoute } from "@/app/api/auth/login/route";
import { POST as logoutRoute } from "@/app/api/auth/logout/route";
import { POST as revokeRoute } from "@/app/api/auth/revoke/route";
import { resetConfigForTests } from "@/lib/config";
import { InMemoryBackend, InMemorySharedState, setSharedStateForTests } from "@/lib/session/shared-state";
import { type RunningSandbox } from "@/sandbox/server";

import { captureLog } from "../support/captured-log";
import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, SAME_ORIGIN_HEADERS, signInThroughRoutes } from "../support/route-browser";

let sandbox: RunningSandbox;
let backend: InMemoryBackend;

beforeAll(async () => {
  sandbox = await startSandboxForDashboard();
  Object.assign(process.env, {
    TRUSTED_PROXY_HEADER: "X-Forwarded-For",
    RATE_LIMIT_PER_CLIENT: "3",
    RATE_LIMIT_PER_SESSION: "4",
    RATE_LIMIT_WINDOW_SECONDS: "60",
  });
  resetConfigForTests();
});
afterAll(async () => {
  for (const name of ["TRUSTED_PROXY_HEADER", "RATE_LIMIT_PER_CLIENT", "RATE_LIMIT_PER_SESSION", "RATE_LIMIT_WINDOW_SECONDS"])
    delete process.env[name];
  resetConfigForTests();
  await sandbox.close();
});
beforeEach(() => {
  // Two instances over one backend: the counters are shared, whichever instance answers.
  backend = new InMemoryBackend();
  setSharedStateForTests(new InMemorySharedState(backend));
});

/** A refused API request: 429, with the wait in Retry-After and in the body the browser reads. */
async function expectLimited(response: Response, detail: "client" | "session"): Promise<void> {
  expect(response.status).toBe(429);
  const wait = Number(response.headers.get("retry-after"));
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(60);
  expect(await response.json()).toEqual({
    error: { code: "rate_limited", message: "Too many attempts. Please wait a moment and try again.", detail, retryAfterSeconds: wait },
  });
}

/**
 * A refused navigation (sign-in, callback): never a page of JSON, but the sign-in problem page, whose
 * address names the wait it says (DESIGN: every failure of the callback ends on a readable page).
 */
function expectLimitedNavigation(response: Response, detail: "client" | "session", popup?: { binding: string; lang: string }): void {
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get("location") ?? "");
  expect(location.pathname).toBe("/sign-in-problem");
  const wait = Number(location.searchParams.get("retryAfter"));
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(60);
  expect(Object.fromEntries(location.searchParams)).toEqual({ code: "rate_limited", detail, retryAfter: String(wait), ...popup });
}

describe("rate limits on the sign-in machinery (per client address from the trusted proxy header)", () => {
  it("answers 429 with Retry-After past the per-client limit, counted across instances, and logs it", async () => {
    const log = captureLog();
    const browser = new RouteBrowser();
    const from = (address: string) => ({ "x-forwarded-for": `203.0.113.9, ${address}` });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      // Alternating instances: every one reads and writes the same counters.
      setSharedStateForTests(new InMemorySharedState(backend));
      expect((await loginRoute(browser.request("/api/auth/login", { headers: from("198.51.100.7") }))).status).toBe(303);
    }
    expectLimitedNavigation(await loginRoute(browser.request("/api/auth/login", { headers: from("198.51.100.7") })), "client");
    // In the embedded panel's popup, the page's "Try again" stays the panel's sign-in, in the panel's language.
    const binding = "b".repeat(43);
    expectLimitedNavigation(
      await loginRoute(browser.request(`/api/auth/login?display=popup&binding=${binding}&lang=zh-TW`, { headers: from("198.51.100.7") })),
      "client",
      { binding, lang: "zh-TW" },
    );
    // The callback and the embedded handoff count toward the same limit.
    expectLimitedNavigation(
      await callbackRoute(browser.request("/api/auth/callback?state=x&code=y", { headers: from("198.51.100.7") })),
      "client",
    );
    await expectLimited(
      await embeddedRoute(
        browser.request("/api/auth/embedded", { method: "POST", headers: { ...SAME_ORIGIN_HEADERS, ...from("198.51.100.7") } }),
      ),
      "client",
    );
    // The address is the proxy's own last entry: what a client writes before it changes nothing.
    expectLimitedNavigation(
      await loginRoute(browser.request("/api/auth/login", { headers: { "x-forwarded-for": "192.0.2.1, 198.51.100.7" } })),
      "client",
    );
    expect((await loginRoute(browser.request("/api/auth/login", { headers: from("198.51.100.8") }))).status).toBe(303);
    expect(log.events().filter((line) => line.event === "rate_limited")).toHaveLength(5);
    expect(log.events().filter((line) => line.event === "sign_in_failed")).toEqual([]);
  });

  it("a callback past the limit in the panel's popup ends on that popup's problem page, its sign-in unspent", async () => {
    const browser = new RouteBrowser();
    const from = { "x-forwarded-for": "203.0.113.9, 198.51.100.30" };
    const binding = "c".repeat(43);
    const login = browser.absorb(
      await loginRoute(browser.request(`/api/auth/login?display=popup&binding=${binding}&lang=zh-TW`, { headers: from })),
    );
    const state = new URL(login.headers.get("location")!).searchParams.get("state")!;
    for (let attempt = 0; attempt < 2; attempt += 1) await loginRoute(browser.request("/api/auth/login", { headers: from }));
    const refused = await callbackRoute(browser.request(`/api/auth/callback?state=${state}&code=y`, { headers: from }));
    expectLimitedNavigation(refused, "client", { binding, lang: "zh-TW" });
    // Refused before its turn: the sign-in's transaction is not spent (no cookie written).
    expect(refused.headers.getSetCookie()).toEqual([]);
    // A state that is not this browser's sign-in names no popup, even one that finds its cookie (named by the
    // state's first 16 characters): the page is a top-level one.
    for (const foreign of ["x".repeat(43), `${state.slice(0, 16)}${"x".repeat(27)}`]) {
      expectLimitedNavigation(
        await callbackRoute(browser.request(`/api/auth/callback?state=${foreign}&code=y`, { headers: from })),
        "client",
      );
    }
  });

  it("answers 429 past the per-session limit on sign-out and revoke, whatever the address", async () => {
    const browser = new RouteBrowser();
    await signInThroughRoutes(browser);
    // Sign-in counted nothing for the session: it had none yet. Refused (no Origin) or not, each request counts.
    const post = (address: string) => browser.request("/api/auth/logout", { method: "POST", headers: { "x-forwarded-for": address } });
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await logoutRoute(post(`198.51.100.${attempt}`))).status).toBe(403);
    await expectLimited(await logoutRoute(post("198.51.100.50")), "session");
    await expectLimited(
      await revokeRoute(
        browser.request("/api/auth/revoke", { method: "POST", headers: { ...SAME_ORIGIN_HEADERS, "x-forwarded-for": "198.51.100.51" } }),
      ),
      "session",
    );
  });

  it("has no per-client limit without TRUSTED_PROXY_HEADER: a header anyone can send is no address", async () => {
    delete process.env.TRUSTED_PROXY_HEADER;
    resetConfigForTests();
    try {
      for (let attempt = 0; attempt < 6; attempt += 1) {
        const response = await loginRoute(
          new RouteBrowser().request("/api/auth/login", { headers: { "x-forwarded-for": "198.51.100.7" } }),
        );
        expect(response.status).toBe(303);
      }
    } finally {
      process.env.TRUSTED_PROXY_HEADER = "X-Forwarded-For";
      resetConfigForTests();
    }
  });
});
