import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { GET as loginRoute } from "@/app/api/auth/login/route";
import type { FailureSpec } from "@/sandbox/knobs";
import { type RunningSandbox } from "@/sandbox/server";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, signInThroughRoutes } from "../support/route-browser";

const params = (resource: string) => ({ params: Promise.resolve({ resource }) });

/**
 * A site that limits how often it answers, over real HTTP (sandbox failure knobs): its Account API answers
 * 429 (with a wait in seconds, as an HTTP-date, none, or one past any use, or a used-up limit's reset in the
 * IETF draft's fields), 403 with a wait or with its limit used up as GitHub does,
 * or a GraphQL "throttled" error at 200 as Shopify and GitHub do; its token endpoint answers a renewal with
 * 429. The data route asks once, says the site is busy (503 `site_busy`), and repeats the wait the site
 * named in `Retry-After` and in the body: the browser tells the member how long.
 */
describe("a site that limits how often it answers", () => {
  let sandbox: RunningSandbox;
  const atSite = (endpoint: string) => sandbox.requests().filter((entry) => entry.endpoint === endpoint);

  beforeAll(async () => {
    sandbox = await startSandboxForDashboard({}, { control: true });
  });
  afterAll(async () => sandbox.close());
  beforeEach(() => sandbox.setKnobs({ clockOffsetMs: 0, failures: { graphql: null, token: null } }));

  async function busyAnswer(browser: RouteBrowser): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
    const response = browser.absorb(await accountRoute(browser.request("/api/account/courses"), params("courses")));
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
  }

  const inTwoMinutes = () => new Date(Date.now() + 120_000).toUTCString();

  it.each<{ name: string; failure: () => FailureSpec; wait: number | [number, number] | undefined }>([
    { name: "429 with a wait in seconds", failure: () => ({ mode: "status", status: 429, retryAfter: "30" }), wait: 30 },
    {
      name: "429 with a wait as an HTTP-date",
      failure: () => ({ mode: "status", status: 429, retryAfter: inTwoMinutes() }),
      wait: [115, 121],
    },
    { name: "429 without a wait", failure: () => ({ mode: "status", status: 429, retryAfter: null }), wait: undefined },
    { name: "429 with a wait of two days", failure: () => ({ mode: "status", status: 429, retryAfter: "172800" }), wait: undefined },
    { name: "429 with a wait of neither form", failure: () => ({ mode: "status", status: 429, retryAfter: "soon" }), wait: undefined },
    { name: "403 with a wait (GitHub's secondary limit)", failure: () => ({ mode: "status", status: 403, retryAfter: "60" }), wait: 60 },
    {
      // GitHub's primary limit: 403 or 429, x-ratelimit-remaining 0, the reset in seconds since the epoch.
      name: "403 with its rate limit used up and no Retry-After (GitHub's primary limit)",
      failure: () => ({
        mode: "status",
        status: 403,
        retryAfter: null,
        headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 120) },
      }),
      wait: [118, 121],
    },
    {
      name: "429 with the IETF draft's rate-limit fields used up and no Retry-After",
      failure: () => ({ mode: "status", status: 429, retryAfter: null, headers: { "ratelimit-remaining": "0", "ratelimit-reset": "45" } }),
      wait: 45,
    },
    { name: "200 with a THROTTLED error (Shopify)", failure: () => ({ mode: "throttled" }), wait: undefined },
    {
      name: "200 with a RATE_LIMITED error type and a wait (GitHub)",
      failure: () => ({ mode: "throttled", as: "error_type", retryAfter: "5" }),
      wait: 5,
    },
  ])("the Account API's $name: the site is busy, asked once", async ({ failure, wait }) => {
    const browser = new RouteBrowser();
    await signInThroughRoutes(browser);
    sandbox.setKnobs({ failures: { graphql: failure() } });
    sandbox.resetRequests();
    const { status, retryAfter, body } = await busyAnswer(browser);
    expect(status).toBe(503);
    expect(body).toEqual({
      error: {
        code: "site_busy",
        message: "The site is busy right now. Please try again in a moment.",
        ...(wait === undefined ? {} : { retryAfterSeconds: Array.isArray(wait) ? (expect.any(Number) as number) : wait }),
      },
    });
    if (wait === undefined) {
      expect(retryAfter).toBeNull();
    } else {
      const seconds = Number(retryAfter);
      expect(seconds).toBe((body as { error: { retryAfterSeconds: number } }).error.retryAfterSeconds);
      const [least, most] = Array.isArray(wait) ? wait : [wait, wait];
      expect(seconds).toBeGreaterThanOrEqual(least);
      expect(seconds).toBeLessThanOrEqual(most);
    }
    // Never asked again on its own: the member presses Retry when the wait is over.
    expect(atSite("graphql")).toHaveLength(1);
    // The member stays signed in: once the site answers again, so does the page.
    sandbox.setKnobs({ failures: { graphql: null } });
    expect((await accountRoute(browser.request("/api/account/courses"), params("courses"))).status).toBe(200);
  });

  it.each([
    ["the Account API", { graphql: { mode: "status", status: 503, retryAfter: "600" } }, "site_unavailable"],
    ["a renewal", { token: { mode: "status", status: 503, retryAfter: "600", times: 1 } }, "refresh_unavailable"],
  ] as const)("%s down for a while (503 with a wait): not available, for as long as the site named", async (_what, failures, code) => {
    const browser = new RouteBrowser();
    await signInThroughRoutes(browser);
    // For the renewal: the site's clock moves past the access token's two hours, so the dashboard renews.
    sandbox.setKnobs({ failures, ...("token" in failures ? { clockOffsetMs: 7_300_000 } : {}) });
    const { status, retryAfter, body } = await busyAnswer(browser);
    expect(status).toBe(503);
    expect(retryAfter).toBe("600");
    expect(body).toEqual({
      error: { code, message: "The site is not available right now. Please try again in a moment.", retryAfterSeconds: 600 },
    });
  });

  it("a site that is down (500 with a wait) is not busy: it is not available", async () => {
    const browser = new RouteBrowser();
    await signInThroughRoutes(browser);
    sandbox.setKnobs({ failures: { graphql: { mode: "status", status: 500, retryAfter: "30" } } });
    const { status, retryAfter, body } = await busyAnswer(browser);
    expect(status).toBe(503);
    expect(retryAfter).toBeNull();
    expect(body).toMatchObject({ error: { code: "site_unavailable" } });
  });

  it.each<{ name: string; failure: FailureSpec }>([
    { name: "429", failure: { mode: "status", status: 429, retryAfter: "45", times: 1 } },
    // A 403 with a wait, even one naming an OAuth error, is busy: the refresh token is not taken for spent.
    { name: "403 with a wait", failure: { mode: "status", status: 403, error: "invalid_grant", retryAfter: "45", times: 1 } },
  ])("a renewal the token endpoint answers with $name: the site is busy, the grant unspent, the member signed in", async ({ failure }) => {
    const browser = new RouteBrowser();
    await signInThroughRoutes(browser);
    // The site's clock moves past the access token's two hours: the Account API refuses it, the dashboard renews.
    sandbox.setKnobs({ clockOffsetMs: 7_300_000, failures: { token: failure } });
    sandbox.resetRequests();
    const { status, retryAfter, body } = await busyAnswer(browser);
    expect(status).toBe(503);
    expect(retryAfter).toBe("45");
    expect(body).toEqual({
      error: { code: "site_busy", message: "The site is busy right now. Please try again in a moment.", retryAfterSeconds: 45 },
    });
    expect(atSite("token").map((entry) => entry.status)).toEqual([failure.mode === "status" ? failure.status : 0]);
    // Retry after the wait: the same refresh token renews access, and the page answers.
    sandbox.resetRequests();
    expect((await accountRoute(browser.request("/api/account/courses"), params("courses"))).status).toBe(200);
    expect(atSite("token").map((entry) => entry.status)).toEqual([200]);
  });
});

/**
 * A site that limits how often its token endpoint and its PAR endpoint answer (per client, so a class
 * signing in together meets it): the sign-in ends on its problem page, which says the site is busy and
 * repeats the wait it named, never that the site did not answer.
 */
describe("a sign-in at a site that limits how often it answers", () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    sandbox = await startSandboxForDashboard({ par: "offered" }, { control: true });
  });
  afterAll(async () => sandbox.close());
  beforeEach(() => sandbox.setKnobs({ failures: { par: null, token: null, userinfo: null } }));

  function problemOf(response: Response): Record<string, string> {
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.pathname).toBe("/sign-in-problem");
    return Object.fromEntries(location.searchParams);
  }

  // A wait written as a moment is written when the knob is set (a function), not when the table is built.
  it.each<{ name: string; endpoint?: "userinfo"; failure: FailureSpec | (() => FailureSpec); problem: Record<string, string> }>([
    {
      name: "a code exchange answered 429 with a wait",
      failure: { mode: "status", status: 429, retryAfter: "20" },
      problem: { code: "site_unavailable", detail: "site_busy", retryAfter: "20" },
    },
    {
      // A gateway's limit in GitHub's manner: 403 with a wait is busy, as at the Account API.
      name: "a code exchange answered 403 with a wait",
      failure: { mode: "status", status: 403, error: "access_denied", retryAfter: "20" },
      problem: { code: "site_unavailable", detail: "site_busy", retryAfter: "20" },
    },
    {
      name: "a code exchange answered 403 with its rate limit used up (the IETF draft's fields)",
      failure: { mode: "status", status: 403, retryAfter: null, headers: { "ratelimit-remaining": "0", "ratelimit-reset": "40" } },
      problem: { code: "site_unavailable", detail: "site_busy", retryAfter: "40" },
    },
    {
      // Without a wait or a used-up limit, a 403 is the site refusing: not busy.
      name: "a code exchange answered a bare 403 with an OAuth error",
      failure: { mode: "status", status: 403, error: "access_denied", retryAfter: null },
      problem: { code: "token_exchange_failed", detail: "access_denied" },
    },
    {
      name: "UserInfo answered 429 with a wait",
      endpoint: "userinfo",
      failure: { mode: "status", status: 429, retryAfter: "7" },
      problem: { code: "site_unavailable", detail: "site_busy", retryAfter: "7" },
    },
    {
      name: "UserInfo answered 403 with a wait",
      endpoint: "userinfo",
      failure: { mode: "status", status: 403, retryAfter: "7" },
      problem: { code: "site_unavailable", detail: "site_busy", retryAfter: "7" },
    },
    {
      // RFC 9110 section 15.6.4: down for a while, back after the wait it names; the page says how long.
      name: "UserInfo answered 503 with a wait: not busy, not available, for that long",
      endpoint: "userinfo",
      failure: { mode: "status", status: 503, retryAfter: "7" },
      problem: { code: "site_unavailable", detail: "503", retryAfter: "7" },
    },
    {
      name: "a code exchange answered 503 with a wait as an HTTP-date",
      failure: () => ({ mode: "status", status: 503, retryAfter: new Date(Date.now() + 600_000).toUTCString() }),
      problem: { code: "site_unavailable", retryAfter: expect.stringMatching(/^(59[0-9]|600)$/) as string },
    },
    {
      // A wait belongs to 503 (and the redirects): one on a 500 is none.
      name: "a code exchange answered 500 with a wait: not available, no wait",
      failure: { mode: "status", status: 500, retryAfter: "7" },
      problem: { code: "site_unavailable" },
    },
    {
      // Not a busy site: one that answers something other than JSON.
      name: "a code exchange answered with a page that is not JSON",
      failure: { mode: "malformed" },
      problem: { code: "site_unavailable", detail: "not_json" },
    },
    {
      name: "a code exchange answered 429 with an OAuth error and no wait",
      failure: { mode: "status", status: 429, error: "invalid_request", retryAfter: null },
      problem: { code: "site_unavailable", detail: "site_busy" },
    },
  ])("$name: the sign-in problem page says so", async ({ endpoint = "token", failure, problem }) => {
    sandbox.setKnobs({ failures: { [endpoint]: typeof failure === "function" ? failure() : failure } });
    expect(problemOf(await signInThroughRoutes(new RouteBrowser()))).toEqual(problem);
  });

  it("a push answered 429 with a wait: the site is busy, and the sign-in never leaves for the site", async () => {
    sandbox.setKnobs({ failures: { par: { mode: "status", status: 429, retryAfter: "90" } } });
    const browser = new RouteBrowser();
    const login = browser.absorb(await loginRoute(browser.request("/api/auth/login")));
    expect(problemOf(login)).toEqual({ code: "pushed_request_failed", detail: "site_busy", retryAfter: "90" });
  });

  it("a push answered 403 with a wait: busy as a 429 is; a bare 403 is a refusal", async () => {
    sandbox.setKnobs({ failures: { par: { mode: "status", status: 403, error: "invalid_request", retryAfter: "90" } } });
    const browser = new RouteBrowser();
    const login = browser.absorb(await loginRoute(browser.request("/api/auth/login")));
    expect(problemOf(login)).toEqual({ code: "pushed_request_failed", detail: "site_busy", retryAfter: "90" });
    sandbox.setKnobs({ failures: { par: { mode: "status", status: 403, error: "invalid_request", retryAfter: null } } });
    const refused = browser.absorb(await loginRoute(browser.request("/api/auth/login")));
    expect(problemOf(refused)).toEqual({ code: "pushed_request_failed", detail: "invalid_request" });
  });

  it("a push answered 503 with a wait: the site is down for that long, and the sign-in never leaves for the site", async () => {
    sandbox.setKnobs({ failures: { par: { mode: "status", status: 503, retryAfter: "300" } } });
    const browser = new RouteBrowser();
    const login = browser.absorb(await loginRoute(browser.request("/api/auth/login")));
    expect(problemOf(login)).toEqual({ code: "pushed_request_failed", detail: "unavailable", retryAfter: "300" });
  });
});
