import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { GET as callbackRoute } from "@/app/api/auth/callback/route";
import { POST as logoutRoute } from "@/app/api/auth/logout/route";
import { POST as revokeRoute } from "@/app/api/auth/revoke/route";
import { prettyLineFormatter } from "@/lib/log/log-format";
import { logEvent, truncateForLog } from "@/lib/log/logger";
import { loadSession } from "@/lib/session/session";
import { type RunningSandbox } from "@/sandbox/server";
import { SEEDED_DASHBOARD_CLIENT } from "@/sandbox/seed";

import { captureLog } from "../support/captured-log";
import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { memoryJar } from "../support/memory-jar";
import { RouteBrowser, SAME_ORIGIN_HEADERS, signInThroughRoutes } from "../support/route-browser";
import { renewalClock } from "../support/renewal-clock";

const params = (resource: string) => ({ params: Promise.resolve({ resource }) });

let sandbox: RunningSandbox;

beforeAll(async () => {
  // 20-second access tokens, due for renewal after 10 s: the member comes back then, so refresh paths are logged too.
  sandbox = await startSandboxForDashboard({ accessTokenTtlSeconds: 20 });
});
afterAll(async () => sandbox.close());

/** The tokens of the browser's current session, read from its cookie. */
async function tokensOf(browser: RouteBrowser): Promise<string[]> {
  const loaded = await loadSession(memoryJar(Object.fromEntries(browser.cookies)));
  return loaded ? [loaded.data.accessToken, ...(loaded.data.refreshToken ? [loaded.data.refreshToken] : [])] : [];
}

describe("no token, code or secret in the dashboard's log (pino, lib/log/logger.ts)", () => {
  const { comeBackWhenRenewalIsDue } = renewalClock();

  it("logs sign-in, refresh, failures, sign-out and revocation by name, never with a secret", async () => {
    const log = captureLog();
    const secrets = new Set<string>([SEEDED_DASHBOARD_CLIENT.clientSecret, process.env.SESSION_SECRET!]);
    const browser = new RouteBrowser();
    const done = await signInThroughRoutes(browser, { returnTo: "/courses" });
    expect(done.status).toBe(303);
    for (const token of await tokensOf(browser)) secrets.add(token);
    for (const cookie of browser.cookies.values()) secrets.add(cookie);

    // A data request that refreshes, then one the site fails, then a callback replayed with a code.
    comeBackWhenRenewalIsDue(20);
    expect((await accountRoute(browser.request("/api/account/courses"), params("courses"))).status).toBe(200);
    expect(log.events().filter((line) => line.event === "token_refreshed")).toHaveLength(1);
    for (const token of await tokensOf(browser)) secrets.add(token);
    sandbox.setKnobs({ failures: { graphql: { mode: "status", status: 500 }, token: { mode: "malformed" } } });
    comeBackWhenRenewalIsDue(20);
    await accountRoute(browser.request("/api/account/orders"), params("orders"));
    sandbox.setKnobs({ failures: { graphql: null, token: null, revoke: { mode: "status", status: 503 } } });
    await callbackRoute(browser.request("/api/auth/callback?code=a-code-that-must-not-be-logged&state=unknown-state&iss=x"));
    secrets.add("a-code-that-must-not-be-logged");
    await revokeRoute(browser.request("/api/auth/revoke", { method: "POST", headers: SAME_ORIGIN_HEADERS }));
    await logoutRoute(browser.request("/api/auth/logout", { method: "POST", headers: SAME_ORIGIN_HEADERS }));
    sandbox.setKnobs({ failures: { revoke: null } });

    const text = log.text();
    expect(log.events().length).toBeGreaterThan(2);
    for (const secret of secrets) expect(text).not.toContain(secret);
    // The same lines as a terminal shows them (LOG_FORMAT=pretty, lib/log/log-format.ts).
    const human = log.lines.map(prettyLineFormatter({ colorize: false })).join("");
    expect(human).toMatch(/INFO: sign_in_succeeded/);
    for (const secret of secrets) expect(human).not.toContain(secret);
  });

  it("redacts token-named fields even if a caller passes one (the second net)", () => {
    const log = captureLog();
    logEvent(
      "site_error",
      { detail: { access_token: "at-secret-1", refresh_token: "rt-secret-2", code: "code-secret-3", client_secret: "cs-secret-4" } },
      "warn",
    );
    expect(log.text()).not.toMatch(/secret-\d/);
    expect(log.lines.map(prettyLineFormatter({ colorize: true })).join("")).not.toMatch(/secret-\d/);
    expect(log.events()[0]).toMatchObject({ event: "site_error", detail: { access_token: "[redacted]" } });
  });

  it("redacts every secret-named field, in an event's fields and one level below", () => {
    const names = ["access_token", "accessToken", "refresh_token", "refreshToken", "id_token", "idToken", "code", "code_verifier"];
    names.push("codeVerifier", "verifier", "client_secret", "clientSecret", "password", "cookie", "authorization", "set-cookie");
    for (const name of names) {
      const log = captureLog();
      logEvent("site_error", { [name]: `${name}-s3cret`, detail: { [name]: `${name}-s3cret` } }, "warn");
      expect(log.text(), name).not.toContain("s3cret");
      expect(log.events()[0], name).toMatchObject({ [name]: "[redacted]", detail: { [name]: "[redacted]" } });
    }
  });

  it("writes a foreign string as one short line: control characters as spaces, cut after 200 characters", () => {
    expect(truncateForLog("a\r\nb\u007fc\u0000d")).toBe("a b c d");
    expect(truncateForLog("x".repeat(200))).toBe("x".repeat(200));
    expect(truncateForLog("x".repeat(201))).toBe(`${"x".repeat(200)}…`);
    expect(truncateForLog(undefined)).toBeUndefined();
  });
});
