/**
 * A member page's server prefetch (app/_lib/prefetch-account-page.ts) asks the site as the page's data route
 * would: a page whose scope the member did not grant is told so before the site is asked, and a member whose
 * tokens are DPoP-bound proves possession of the session's key on the call.
 */
import type { ReactElement } from "react";
import { decodeJwt } from "jose";
import { describe, expect, it, vi } from "vitest";

import CoursesPage from "@/app/(member)/courses/page";
import { newDpopKey } from "@/lib/auth/dpop";
import type { SessionData } from "@/lib/session/session";

import { runAfterResponse } from "../support/after-response";
import { setUpDashboardOnFakeSite } from "../support/dashboard-on-fake-site";
import { requestHeaders } from "../support/request-headers";
import { sessionData } from "../support/session-data";
import { sessionCookie } from "../support/session-fixture";

vi.mock("next/headers", () => import("../support/request-headers"));
vi.mock("next/server", async (real) => ({ ...(await real<object>()), ...(await import("../support/after-response")) }));

const site = setUpDashboardOnFakeSite();

/** The Courses page rendered for `session` on a document load: the state of its one prefetched query. */
async function coursesPrefetchedFor(session: SessionData): Promise<{ status: string; error?: unknown }> {
  requestHeaders.current = new Headers({
    "sec-fetch-mode": "navigate",
    cookie: await sessionCookie(session),
  });
  const element = (await CoursesPage({ searchParams: Promise.resolve({}) })) as ReactElement<{
    state: { queries: { state: { status: string; error?: unknown } }[] };
  }>;
  await runAfterResponse();
  const [courses, ...others] = element.props.state.queries;
  expect(others).toEqual([]);
  return courses!.state;
}

describe("a member page's server prefetch", () => {
  it("tells a member who did not grant the page's scope so, without asking the site", async () => {
    const state = await coursesPrefetchedFor(sessionData({ scopes: ["openid"] }));
    expect(state).toMatchObject({ status: "error", error: { code: "insufficient_scope" } });
    expect(site.callsTo("/account/graphql")).toEqual([]);
  });

  it("calls the site with the member's DPoP-bound token and a proof of the session's key", async () => {
    site.handlers.set("POST /account/graphql", () => ({ status: 200, json: { errors: [{ message: "Internal server error" }] } }));
    await coursesPrefetchedFor(sessionData({ accessToken: "at-bound", tokenType: "DPoP", dpopKey: await newDpopKey() }));
    const [call] = site.callsTo("/account/graphql");
    expect(call?.headers.authorization).toBe("DPoP at-bound");
    expect(typeof call?.headers.dpop).toBe("string");
    expect(decodeJwt(call!.headers.dpop as string)).toMatchObject({ htm: "POST", htu: `${site.url}/account/graphql` });
  });
});
