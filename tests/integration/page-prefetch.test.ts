/**
 * A member page's server prefetch (app/_lib/prefetch-account-page.ts) asks the site as the page's data route
 * would: a page whose scope the member did not grant is told so before the site is asked.
 */
import type { ReactElement } from "react";
import { describe, expect, it, vi } from "vitest";

import CoursesPage from "@/app/(member)/courses/page";
import { saveSession, sessionCookieName, type SessionData } from "@/lib/session/session";

import { runAfterResponse } from "../support/after-response";
import { setUpDashboardOnFakeSite } from "../support/dashboard-on-fake-site";
import { memoryJar } from "../support/memory-jar";
import { requestHeaders } from "../support/request-headers";
import { sessionData } from "../support/session-data";

vi.mock("next/headers", () => import("../support/request-headers"));
vi.mock("next/server", async (real) => ({ ...(await real<object>()), ...(await import("../support/after-response")) }));

const site = setUpDashboardOnFakeSite();

/** The Courses page rendered for `session` on a document load: the state of its one prefetched query. */
async function coursesPrefetchedFor(session: SessionData): Promise<{ status: string; error?: unknown }> {
  const jar = memoryJar();
  await saveSession(jar, session);
  requestHeaders.current = new Headers({
    "sec-fetch-mode": "navigate",
    cookie: `${sessionCookieName()}=${jar.cookies.get(sessionCookieName())}`,
  });
  const element = (await CoursesPage()) as ReactElement<{ state: { queries: { state: { status: string; error?: unknown } }[] } }>;
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
});
