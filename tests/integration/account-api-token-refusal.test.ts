import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { ACCOUNT_API_TOKEN_REFUSALS, type AccountApiTokenRefusal, type GraphqlServer } from "@/sandbox/knobs";
import { type RunningSandbox } from "@/sandbox/server";
import { postSandboxControl } from "@/sandbox/testing";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, signInThroughRoutes } from "../support/route-browser";

const params = (resource: string) => ({ params: Promise.resolve({ resource }) });

/**
 * A site whose Account API refuses a token it no longer takes in another form than the documented 401 with a
 * Bearer challenge (sandbox knob `accountApiTokenRefusal`): without the challenge, or as a GraphQL error coded
 * UNAUTHENTICATED with 401 or 200. The data route renews the token once and asks once more, over real HTTP,
 * as it does at the documented site; a withdrawn access ends the session saying so.
 */
const SETTINGS: { refusal: AccountApiTokenRefusal; graphqlServer: GraphqlServer }[] = [
  ...ACCOUNT_API_TOKEN_REFUSALS.map((refusal) => ({ refusal, graphqlServer: "graphql-js" as const })),
  // Hot Chocolate's code for it: AUTH_NOT_AUTHENTICATED.
  { refusal: "graphql_200", graphqlServer: "hot-chocolate" },
];

describe.each(SETTINGS)("an Account API that refuses a token with $refusal, on $graphqlServer", ({ refusal, graphqlServer }) => {
  let sandbox: RunningSandbox;
  const refusedStatus = refusal === "graphql_200" ? 200 : 401;
  const atSite = (endpoint: string) => sandbox.requests().filter((entry) => entry.endpoint === endpoint);

  beforeAll(async () => {
    sandbox = await startSandboxForDashboard({ accountApiTokenRefusal: refusal, graphqlServer }, { control: true });
  });
  afterAll(async () => sandbox.close());
  beforeEach(() => sandbox.setKnobs({ clockOffsetMs: 0 }));

  it("a token that lapsed at the site before the time it was given for is renewed once, and the page answered", async () => {
    const browser = new RouteBrowser();
    await signInThroughRoutes(browser);
    // The site's clock moves past the access token's two hours: the dashboard still holds it for good.
    sandbox.setKnobs({ clockOffsetMs: 7_300_000 });
    sandbox.resetRequests();
    const courses = browser.absorb(await accountRoute(browser.request("/api/account/courses"), params("courses")));
    expect(courses.status).toBe(200);
    expect(((await courses.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    expect(atSite("graphql").map((entry) => entry.status)).toEqual([refusedStatus, 200]);
    expect(atSite("token").map((entry) => entry.status)).toEqual([200]);
    // The renewed token is the session's now: the next view asks the site once.
    sandbox.resetRequests();
    expect((await accountRoute(browser.request("/api/account/orders"), params("orders"))).status).toBe(200);
    expect(atSite("graphql").map((entry) => entry.status)).toEqual([200]);
    expect(atSite("token")).toEqual([]);
  });

  it("when the member withdrew the app's access at the site, the session ends saying so", async () => {
    const browser = new RouteBrowser();
    await signInThroughRoutes(browser);
    await postSandboxControl(sandbox.url, "/__sandbox/withdraw-access", { email: "maya@example.com" });
    sandbox.resetRequests();
    const overview = browser.absorb(await accountRoute(browser.request("/api/account/overview"), params("overview")));
    expect(overview.status).toBe(401);
    expect(await overview.json()).toEqual({
      error: {
        code: "unauthenticated",
        message: expect.stringContaining("withdrew this app's access") as string,
        detail: "access_withdrawn",
      },
    });
    expect(atSite("graphql").map((entry) => entry.status)).toEqual([refusedStatus]);
    expect(atSite("token").map((entry) => entry.status)).toEqual([400]);
    // Signed out here too: the next request has no session to try.
    expect((await accountRoute(browser.request("/api/account/overview"), params("overview"))).status).toBe(401);
    expect(atSite("graphql")).toHaveLength(1);
  });
});
