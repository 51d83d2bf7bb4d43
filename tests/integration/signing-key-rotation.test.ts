import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import type { KeyRotationMode, KeyRotationResult, RunningSandbox } from "@/sandbox/server";
import { postSandboxControl } from "@/sandbox/testing";

import { TEST_APP_URL } from "../support/env";
import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { renewalClock } from "../support/renewal-clock";
import { RouteBrowser, SAME_ORIGIN_HEADERS, signInThroughRoutes } from "../support/route-browser";

/**
 * The site rotates its id_token signing key (OpenID Connect Core 10.1.1), over real HTTP through the
 * sandbox's control route, moments after the dashboard fetched the key set for a sign-in. The next
 * sign-in must find the new key at once (one re-fetch of the key set), in both ways a site may rotate:
 * keeping the old key published for a while (graceful) or dropping it at once (abrupt). A key the site
 * never published is refused after that one re-fetch, and further sign-ins under unknown keys fetch
 * nothing more until the cooldown ends (security checklist 33).
 *
 * Each test has its own sandbox, so its own jwks_uri and the dashboard's own cached key set for it.
 */
const MODES: KeyRotationMode[] = ["graceful", "abrupt"];

let sandbox: RunningSandbox;

beforeEach(async () => {
  // 20-second access tokens: due for renewal 10 s after they are issued.
  sandbox = await startSandboxForDashboard({ accessTokenTtlSeconds: 20 }, { control: true });
});
afterEach(async () => sandbox.close());

async function rotate(mode: KeyRotationMode | "unpublished"): Promise<KeyRotationResult> {
  const response = await postSandboxControl(sandbox.url, "/__sandbox/rotate-signing-key", { mode });
  expect(response.status).toBe(200);
  return (await response.json()) as KeyRotationResult;
}

/** Key-set fetches since the request log was last emptied. */
const keySetFetches = () => sandbox.requests().filter((entry) => entry.endpoint === "jwks").length;

async function signIn(): Promise<{ browser: RouteBrowser; location: URL }> {
  const browser = new RouteBrowser();
  const done = await signInThroughRoutes(browser, { returnTo: "/courses" });
  expect(done.status).toBe(303);
  return { browser, location: new URL(done.headers.get("location")!) };
}

/** Signs in, which fetches the key set; the log is then emptied. */
async function signInFetchingTheKeySet(): Promise<RouteBrowser> {
  const { browser, location } = await signIn();
  expect(location.href).toBe(`${TEST_APP_URL}/courses`);
  expect(keySetFetches()).toBe(1);
  sandbox.resetRequests();
  return browser;
}

describe.each(MODES)("a %s rotation of the site's signing key", (mode) => {
  const { comeBackWhenRenewalIsDue } = renewalClock();

  it("a sign-in right after it succeeds: the key set, fetched moments before, is fetched once more", async () => {
    const earlier = await signInFetchingTheKeySet();
    const rotation = await rotate(mode);
    expect(rotation.publishedKids[0]).toBe(rotation.kid);

    const { browser, location } = await signIn();
    expect(location.href).toBe(`${TEST_APP_URL}/courses`);
    expect(keySetFetches()).toBe(1);
    const session = await sessionRoute(browser.request("/api/session"));
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ email: "maya@example.com" });

    // A second sign-in under the new key finds it in the re-fetched set.
    sandbox.resetRequests();
    expect((await signIn()).location.href).toBe(`${TEST_APP_URL}/courses`);
    expect(keySetFetches()).toBe(0);

    // The member signed in before the rotation carries on, back once their token is due: their data,
    // through a refresh (the site's refresh responses carry no id_token, site-access-api section 2.4).
    sandbox.resetRequests();
    comeBackWhenRenewalIsDue(20);
    const courses = await accountRoute(earlier.request("/api/account/courses", { headers: SAME_ORIGIN_HEADERS }), {
      params: Promise.resolve({ resource: "courses" }),
    });
    expect(courses.status).toBe(200);
    expect(
      sandbox
        .requests()
        .filter((entry) => entry.grantType === "refresh_token")
        .map((entry) => entry.status),
    ).toEqual([200]);
  });

  it("an id_token under a key the site never published is refused after one re-fetch, and more unknown keys fetch nothing", async () => {
    await signInFetchingTheKeySet();
    await rotate(mode);
    const unpublished = await rotate("unpublished");
    expect(unpublished.publishedKids).not.toContain(unpublished.kid);

    const refused = await signIn();
    expect(refused.location.pathname).toBe("/sign-in-problem");
    expect(refused.location.searchParams.get("code")).toBe("id_token_invalid");
    expect(refused.location.searchParams.get("detail")).toBe("kid");
    expect(keySetFetches()).toBe(1);
    expect((await sessionRoute(refused.browser.request("/api/session"))).status).toBe(401);

    // The site keeps signing with unknown keys: still refused, and the key set is not fetched again.
    sandbox.resetRequests();
    await rotate("unpublished");
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const again = await signIn();
      expect(again.location.searchParams.get("code")).toBe("id_token_invalid");
      expect(again.location.searchParams.get("detail")).toBe("kid");
    }
    expect(keySetFetches()).toBe(0);
  });
});

describe("a key set the site does not serve", () => {
  const serveNoKeySet = () => sandbox.setKnobs({ failures: { jwks: { mode: "status", status: 503 } } });
  const serveTheKeySet = () => sandbox.setKnobs({ failures: { jwks: null } });

  async function expectSiteUnavailable(): Promise<void> {
    const refused = await signIn();
    expect(refused.location.pathname).toBe("/sign-in-problem");
    expect(refused.location.searchParams.get("code")).toBe("site_unavailable");
    expect(refused.location.searchParams.get("detail")).toBe("jwks");
    expect((await sessionRoute(refused.browser.request("/api/session"))).status).toBe(401);
  }

  it("at a first sign-in, the member is told the site is unavailable, and signs in once it serves its keys again", async () => {
    serveNoKeySet();
    await expectSiteUnavailable();
    expect(keySetFetches()).toBe(1);

    serveTheKeySet();
    sandbox.resetRequests();
    expect((await signIn()).location.href).toBe(`${TEST_APP_URL}/courses`);
    expect(keySetFetches()).toBe(1);
  });

  it("when the re-fetch after a rotation fails, that sign-in and the next within the cooldown say the site is unavailable", async () => {
    await signInFetchingTheKeySet();
    await rotate("abrupt");
    serveNoKeySet();
    await expectSiteUnavailable();
    expect(keySetFetches()).toBe(1);

    // The key set answers again, but the one re-fetch of the cooldown is spent: the new kid is not known to
    // be unpublished, so the next sign-in is not told its token was refused either, and nothing is fetched.
    serveTheKeySet();
    sandbox.resetRequests();
    await expectSiteUnavailable();
    expect(keySetFetches()).toBe(0);
  });
});
