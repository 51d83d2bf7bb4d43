/**
 * An all-day event's dates are shown as written ("5 Dec" in every time zone) and go into the calendar file as
 * dates, which a calendar shows on the member's own 5 Dec: the Overview keeps it among the upcoming events until
 * the end of that day where the member is (the browser's `tz` cookie), in the page's server render and in the
 * data route alike, not until midnight in the site's offset.
 */
import type { ReactElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import OverviewPage from "@/app/(member)/page";
import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { TIME_ZONE_COOKIE } from "@/lib/i18n/time-zone";
import type { Overview } from "@/lib/types/account";

import { runAfterResponse } from "../support/after-response";
import { setUpDashboardOnFakeSite } from "../support/dashboard-on-fake-site";
import { onePageOf, siteAnswersWithViewer } from "../support/fake-viewer";
import { requestHeaders } from "../support/request-headers";
import { RouteBrowser } from "../support/route-browser";
import { expiringSession, sessionCookie } from "../support/session-fixture";

vi.mock("next/headers", () => import("../support/request-headers"));
vi.mock("next/server", async (real) => ({ ...(await real<object>()), ...(await import("../support/after-response")) }));

const site = setUpDashboardOnFakeSite();

/** 5 December 12:00 in New York, already 6 December 01:00 in Taipei, the site's offset. */
const NOW = new Date("2026-12-05T17:00:00Z");

afterEach(() => {
  vi.useRealTimers();
});

/** The site: the member, no courses, and one registration for an all-day event on 5 December (+08:00). */
function siteWithOneAllDayEvent(): void {
  siteAnswersWithViewer(site, {
    name: "Maya",
    email: "m@example.com",
    enrolledCourses: onePageOf([]),
    eventRegistrations: onePageOf([
      {
        id: "reg-1",
        state: "enrolled",
        registeredAt: "2026-11-01T00:00:00Z",
        event: {
          id: "event-1",
          title: "Open studio day",
          startTime: "2026-12-05T00:00:00+08:00",
          endTime: null,
          isAllDay: true,
          location: "Taipei",
          url: null,
        },
      },
    ]),
  });
}

/** The session cookie of a signed-in member (tokens good for an hour), and the time-zone cookie when `timeZone` is given. */
async function cookieHeader(timeZone: string | undefined): Promise<string> {
  const session = await sessionCookie(expiringSession({ accessTokenExpiresAt: Date.now() + 60 * 60_000 }));
  return timeZone === undefined ? session : `${session}; ${TIME_ZONE_COOKIE}=${encodeURIComponent(timeZone)}`;
}

async function upcomingFromDataRoute(timeZone: string | undefined): Promise<string[] | null> {
  const browser = new RouteBrowser();
  const request = browser.request("/api/account/overview", { headers: { cookie: await cookieHeader(timeZone) } });
  const response = await accountRoute(request, { params: Promise.resolve({ resource: "overview" }) });
  expect(response.status).toBe(200);
  const overview = (await response.json()) as Overview;
  return overview.upcomingEvents?.map((registration) => registration.id) ?? null;
}

async function upcomingFromPage(timeZone: string | undefined): Promise<string[] | null> {
  requestHeaders.current = new Headers({ "sec-fetch-mode": "navigate", cookie: await cookieHeader(timeZone) });
  const element = (await OverviewPage()) as ReactElement<{
    state: { queries: { state: { status: string; data?: Overview } }[] };
  }>;
  await runAfterResponse();
  const [overview] = element.props.state.queries;
  expect(overview?.state.status).toBe("success");
  return overview?.state.data?.upcomingEvents?.map((registration) => registration.id) ?? null;
}

describe.each([
  ["the data route", upcomingFromDataRoute],
  ["the page's server render", upcomingFromPage],
])("the Overview's upcoming events, from %s", (_source, upcomingEvents) => {
  it.each([
    ["America/New_York", ["reg-1"]],
    ["Asia/Taipei", []],
    ["Pacific/Kiritimati", []],
    [undefined, ["reg-1"]],
  ])("in %s at 17:00 UTC on 5 December, an all-day event of 5 December is %j", async (timeZone, expected) => {
    siteWithOneAllDayEvent();
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    expect(await upcomingEvents(timeZone)).toEqual(expected);
  });
});
