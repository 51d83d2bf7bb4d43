import { Writable } from "node:stream";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CSRF_HEADER, CSRF_HEADER_VALUE } from "@/lib/contract/csrf";
import { revokeAtSite } from "@/lib/auth/revocation";
import type { LoginTransaction } from "@/lib/auth/transaction";
import { setLogDestinationForTests } from "@/lib/log/logger";
import { openSessionSeal } from "@/lib/session/seal";
import { loadSession } from "@/lib/session/session";
import { type RunningSandbox } from "@/sandbox/server";
import { SEEDED_DASHBOARD_CLIENT } from "@/sandbox/seed";
import { authorizeWithoutBrowser } from "@/sandbox/testing";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { TEST_APP_URL } from "../support/env";
import { memoryJar } from "../support/memory-jar";
import { RouteBrowser, SAME_ORIGIN_HEADERS } from "../support/route-browser";
import { renewalClock } from "../support/renewal-clock";

interface LogLine {
  level: string;
  time: string;
  event?: string;
  requestId?: string;
  [field: string]: unknown;
}

/**
 * The operator's view (issue 9): a sign-in, a refresh, a failing query, a CSRF refusal, a sign-in failure
 * and a revocation against the sandbox, through the real route handlers. Every line must be JSON with a
 * time and a level, the named events must say what happened, and no secret the test knows may appear.
 */
describe("operator logs", () => {
  let sandbox: RunningSandbox;
  const output: string[] = [];
  const secrets = new Set<string>();

  beforeAll(async () => {
    // 20-second access tokens: due for renewal 10 s after they are issued.
    sandbox = await startSandboxForDashboard({ accessTokenTtlSeconds: 20 });
    setLogDestinationForTests(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          output.push(chunk.toString("utf8"));
          done();
        },
      }),
    );
    secrets.add(SEEDED_DASHBOARD_CLIENT.clientSecret);
    for (const secret of process.env.SESSION_SECRET!.split(",")) secrets.add(secret);
    secrets.add("demo");
  });
  afterAll(async () => sandbox.close());

  function lines(): LogLine[] {
    return output
      .join("")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as LogLine);
  }

  function events(name: string): LogLine[] {
    return lines().filter((line) => line.event === name);
  }

  function rememberCookies(browser: RouteBrowser): void {
    for (const value of browser.cookies.values()) if (value.length >= 16) secrets.add(value);
  }

  async function rememberTokens(browser: RouteBrowser): Promise<void> {
    const session = await loadSession(memoryJar(Object.fromEntries(browser.cookies)));
    if (!session) return;
    secrets.add(session.data.accessToken);
    if (session.data.refreshToken) secrets.add(session.data.refreshToken);
  }

  async function signIn(browser: RouteBrowser): Promise<void> {
    const { GET: loginRoute } = await import("@/app/api/auth/login/route");
    const { GET: callbackRoute } = await import("@/app/api/auth/callback/route");
    const login = browser.absorb(await loginRoute(browser.request("/api/auth/login?returnTo=/courses")));
    rememberCookies(browser);
    for (const [name, value] of browser.cookies) {
      if (!name.includes("dash_tx_")) continue;
      const transaction = await openSessionSeal<LoginTransaction>(value);
      secrets.add(transaction.codeVerifier);
      secrets.add(transaction.nonce);
    }
    const redirect = await authorizeWithoutBrowser(login.headers.get("location")!, { email: "maya@example.com" });
    secrets.add(redirect.searchParams.get("code")!);
    const callback = browser.absorb(await callbackRoute(browser.request(`/api/auth/callback${redirect.search}`)));
    expect(callback.status).toBe(303);
    rememberCookies(browser);
    await rememberTokens(browser);
  }

  it("logs each BFF request once, keeping a well-formed X-Request-Id and replacing a malformed one", async () => {
    const { GET: sessionRoute } = await import("@/app/api/session/route");
    const browser = new RouteBrowser();
    const kept = await sessionRoute(browser.request("/api/session", { headers: { "x-request-id": "lb-7f3a.42:abc_DEF" } }));
    expect(kept.status).toBe(401);
    expect(kept.headers.get("x-request-id")).toBe("lb-7f3a.42:abc_DEF");
    const replaced = await sessionRoute(browser.request("/api/session", { headers: { "x-request-id": 'evil\\n{"event":"forged"}' } }));
    const madeId = replaced.headers.get("x-request-id");
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/);

    const requests = events("request").filter((line) => line.route === "/api/session");
    expect(requests).toEqual([
      expect.objectContaining({
        level: "info",
        method: "GET",
        route: "/api/session",
        status: 401,
        requestId: "lb-7f3a.42:abc_DEF",
        durationMs: expect.any(Number) as number,
      }),
      expect.objectContaining({ requestId: madeId }),
    ]);
    expect(events("forged")).toEqual([]);
  });

  const { comeBackWhenRenewalIsDue } = renewalClock();

  it("names a sign-in, a refresh, a failing query, a CSRF refusal, a failed sign-in and a revocation, no secret in any line", async () => {
    const browser = new RouteBrowser();
    await signIn(browser);
    const [signedIn] = events("sign_in_succeeded");
    expect(signedIn).toBeDefined();
    expect(events("request").find((line) => line.route === "/api/auth/callback")?.requestId).toBe(signedIn!.requestId);

    // A data request once the access token is due for renewal: the tokens rotate.
    comeBackWhenRenewalIsDue(20);
    const { GET: accountRoute } = await import("@/app/api/account/[resource]/route");
    const params = (resource: string) => ({ params: Promise.resolve({ resource }) });
    expect(browser.absorb(await accountRoute(browser.request("/api/account/courses"), params("courses"))).status).toBe(200);
    expect(events("token_refreshed")).toHaveLength(1);
    await rememberTokens(browser);

    // A query the site cannot run: the operator learns which operation, the status and what the site said.
    sandbox.setKnobs({ graphqlMissingFields: ["orders"] });
    const failed = browser.absorb(await accountRoute(browser.request("/api/account/orders"), params("orders")));
    expect(failed.status).toBe(502);
    sandbox.setKnobs({ graphqlMissingFields: [] });
    const siteError = events("site_error").at(-1)!;
    expect(siteError).toMatchObject({
      level: "warn",
      errorCode: "query_failed",
      endpoint: expect.stringMatching(/^graphql [A-Z]\w+$/) as string,
      siteStatus: expect.any(Number) as number,
    });
    expect(siteError.siteErrorMessage).toMatch(/orders/);
    expect(siteError.requestId).toBe(events("request").at(-1)!.requestId);
    await rememberTokens(browser);

    // A state-changing request from elsewhere.
    const { POST: logoutRoute } = await import("@/app/api/auth/logout/route");
    const refused = await logoutRoute(
      browser.request("/api/auth/logout", {
        method: "POST",
        headers: { origin: "https://evil.example", [CSRF_HEADER]: CSRF_HEADER_VALUE },
      }),
    );
    expect(refused.status).toBe(403);
    expect(events("csrf_refused")).toEqual([expect.objectContaining({ level: "warn", errorCode: "csrf_rejected", detail: "origin" })]);

    // A callback that is not this browser's: sign_in_failed with its stable code.
    const { GET: callbackRoute } = await import("@/app/api/auth/callback/route");
    await callbackRoute(
      new RouteBrowser().request(
        `/api/auth/callback?code=forged-code-0123456789&state=forged-state&iss=${encodeURIComponent(sandbox.url)}`,
      ),
    );
    expect(events("sign_in_failed").at(-1)).toMatchObject({ level: "warn", errorCode: expect.stringMatching(/^login_/) as string });

    // The member revokes access.
    const { POST: revokeRoute } = await import("@/app/api/auth/revoke/route");
    const revoked = browser.absorb(
      await revokeRoute(browser.request("/api/auth/revoke", { method: "POST", headers: SAME_ORIGIN_HEADERS })),
    );
    expect(revoked.status).toBe(200);
    expect(events("access_revoked")).toHaveLength(1);

    // A grant revoked elsewhere (another device): the next refresh fails, and the line says why.
    const otherDevice = new RouteBrowser();
    await signIn(otherDevice);
    await revokeAtSite((await loadSession(memoryJar(Object.fromEntries(otherDevice.cookies))))!.data);
    expect((await accountRoute(otherDevice.request("/api/account/courses"), params("courses"))).status).toBe(401);
    expect(events("refresh_failed").at(-1)).toMatchObject({
      level: "warn",
      endpoint: "/api/oauth/token",
      siteStatus: 400,
      siteErrorCode: "invalid_grant",
    });

    const all = lines();
    for (const line of all) {
      expect(line.time, JSON.stringify(line)).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(["debug", "info", "warn", "error"]).toContain(line.level);
    }
    const text = output.join("");
    for (const secret of secrets) expect(text.includes(secret), `a secret (${secret.slice(0, 4)}…) appears in the logs`).toBe(false);
    expect(text).not.toContain(TEST_APP_URL + "/api/auth/callback?");
  });

  it("censors a secret-named field even if one is ever passed to the logger by mistake", async () => {
    const { logEvent } = await import("@/lib/log/logger");
    logEvent("site_error", {
      access_token: "leaked-access-token-value",
      nested: { refresh_token: "leaked-refresh-token-value", cookie: "leaked-cookie" },
    });
    const text = output.join("");
    for (const leaked of ["leaked-access-token-value", "leaked-refresh-token-value", "leaked-cookie"]) expect(text).not.toContain(leaked);
    expect(events("site_error").at(-1)).toMatchObject({
      access_token: "[redacted]",
      nested: { refresh_token: "[redacted]", cookie: "[redacted]" },
    });
  });
});
