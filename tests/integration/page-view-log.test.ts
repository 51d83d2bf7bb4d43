/**
 * A member page's render logs one `page_view` line once its answer is sent (README, Logs): the page's own
 * path, a document load or the router's fetch of a tab click, what the page showed (with the public error
 * code when it showed an error), how long it took and the request's id; the metrics count it. An operator
 * sees every page view, not only the ones that failed at the site.
 */
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";

import CoursesPage from "@/app/(member)/courses/page";
import SettingsPage from "@/app/(member)/settings/page";
import { pageViewDuration, pageViews } from "@/lib/metrics/registry";
import { sessionCookieName } from "@/lib/session/session";
import { InMemorySharedState, setSharedStateForTests, SharedStateUnavailableError } from "@/lib/session/shared-state";

import { runAfterResponse } from "../support/after-response";
import { captureLog } from "../support/captured-log";
import { setUpDashboardOnFakeSite } from "../support/dashboard-on-fake-site";
import { requestHeaders } from "../support/request-headers";
import { expiringSession, sessionCookie } from "../support/session-fixture";

vi.mock("next/headers", () => import("../support/request-headers"));
vi.mock("next/server", async (real) => ({ ...(await real<object>()), ...(await import("../support/after-response")) }));

const site = setUpDashboardOnFakeSite();

/** What the last view logged. */
let log: ReturnType<typeof captureLog>;

/**
 * Renders a page for a request with `headers` (a document load unless they say otherwise), sends the answer
 * (runs what the render left for after it), and returns the page views it logged.
 */
async function view(
  page: (props: { searchParams: Promise<Record<string, string>> }) => Promise<ReactNode>,
  headers: Record<string, string>,
): Promise<Record<string, unknown>[]> {
  log = captureLog();
  requestHeaders.current = new Headers({ "sec-fetch-mode": "navigate", "x-request-id": "view-1", ...headers });
  try {
    await page({ searchParams: Promise.resolve({}) });
  } catch (error) {
    // A redirect (Next.js throws it): the page view is logged all the same.
    if (!String((error as { digest?: unknown }).digest).startsWith("NEXT_REDIRECT;")) throw error;
  }
  expect(log.events().filter((line) => line.event === "page_view")).toEqual([]);
  await runAfterResponse();
  return log.events().filter((line) => line.event === "page_view");
}

/** The Settings page views shown on a document load so far, in the metrics, and those timed. */
async function settingsViewsShown(): Promise<number> {
  const { values } = await pageViews.get();
  return (
    values.find(({ labels }) => labels.page === "/settings" && labels.navigation === "document" && labels.outcome === "shown")?.value ?? 0
  );
}
async function settingsViewsTimed(): Promise<number> {
  const { values } = await pageViewDuration.get();
  return (
    values.find(({ metricName, labels }) => metricName === "dashboard_page_view_duration_seconds_count" && labels.page === "/settings")
      ?.value ?? 0
  );
}

const graphqlFails = () =>
  site.handlers.set("POST /account/graphql", () => ({ status: 200, json: { errors: [{ message: "Internal server error" }] } }));

describe("a member page view's line", () => {
  it("says the page was shown: its path, a document load, the request's id and how long it took; counted", async () => {
    const cookie = await sessionCookie();
    const [viewsBefore, timedBefore] = await Promise.all([settingsViewsShown(), settingsViewsTimed()]);
    const lines = await view(SettingsPage, { cookie });
    expect(lines).toEqual([
      expect.objectContaining({ page: "/settings", navigation: "document", outcome: "shown", requestId: "view-1", level: "info" }),
    ]);
    expect(lines[0]!.durationMs).toEqual(expect.any(Number));
    expect(lines[0]).not.toHaveProperty("errorCode");
    // No part of the session's cookie or tokens in the line.
    expect(JSON.stringify(lines)).not.toMatch(/at-0|rt-0|Fe26/);
    expect([(await settingsViewsShown()) - viewsBefore, (await settingsViewsTimed()) - timedBefore]).toEqual([1, 1]);
  });

  it("says the page showed an error, with the code the member was shown, under the id the site's error carries", async () => {
    graphqlFails();
    const lines = await view(CoursesPage, { cookie: await sessionCookie() });
    expect(lines).toEqual([
      expect.objectContaining({ page: "/courses", outcome: "error", errorCode: "query_failed", requestId: "view-1" }),
    ]);
    expect(log.events().find((line) => line.event === "site_error")).toMatchObject({ requestId: "view-1" });
  });

  it("tells a tab click (the router's fetch) from a document load", async () => {
    graphqlFails();
    const lines = await view(CoursesPage, { cookie: await sessionCookie(), "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" });
    expect(lines).toEqual([expect.objectContaining({ page: "/courses", navigation: "router" })]);
  });

  it("says the data was left to the browser when the access token had run out (no call to the site)", async () => {
    const lines = await view(CoursesPage, { cookie: await sessionCookie(expiringSession({ accessTokenExpiresAt: Date.now() - 1_000 })) });
    expect(lines).toEqual([expect.objectContaining({ page: "/courses", outcome: "not_prefetched" })]);
    expect(site.callsTo("/account/graphql")).toEqual([]);
  });

  it("says the signed-out landing was shown without a session, and sign-in again when the cookie holds none", async () => {
    expect(await view(CoursesPage, {})).toEqual([expect.objectContaining({ page: "/courses", outcome: "signed_out" })]);
    const lines = await view(CoursesPage, { cookie: `${sessionCookieName()}=not-a-seal` });
    expect(lines).toEqual([expect.objectContaining({ page: "/courses", outcome: "sign_in_again" })]);
  });

  it("says the page was unavailable when the shared state does not answer", async () => {
    const cookie = await sessionCookie();
    class Down extends InMemorySharedState {
      override recall(): Promise<string | undefined> {
        return Promise.reject(new SharedStateUnavailableError("Redis did not answer (recall)."));
      }
    }
    setSharedStateForTests(new Down());
    expect(await view(CoursesPage, { cookie })).toEqual([expect.objectContaining({ page: "/courses", outcome: "unavailable" })]);
  });
});
