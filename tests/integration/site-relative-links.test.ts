/**
 * A site may give its own links relative to itself: a cover as `/uploads/…` (a site that serves its uploads
 * itself), an event's link as `/live/…`. The data routes of Courses, Events and the Overview give the
 * browser those links on the site, as the browser on the site's page would read them, never a path that
 * would resolve on the dashboard.
 */
import { describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import type { CoursesPage, EventsPage, Overview } from "@/lib/types/account";

import { setUpDashboardOnFakeSite } from "../support/dashboard-on-fake-site";
import { onePageOf, siteAnswersWithViewer } from "../support/fake-viewer";
import { RouteBrowser } from "../support/route-browser";
import { expiringSession, sessionCookie } from "../support/session-fixture";

const site = setUpDashboardOnFakeSite();

function siteWithRelativeLinks(): void {
  siteAnswersWithViewer(site, {
    name: "Maya",
    email: "m@example.com",
    enrolledCourses: onePageOf([
      {
        slug: "watercolour-101",
        name: "Watercolour 101",
        imageUrl: "/uploads/covers/watercolour-101.png",
        expireDate: null,
        hasLifetimeAccess: true,
        completionPercentage: 40,
        lastWatchedLecture: { lectureId: "L1", positionSeconds: 60, title: "Wet on wet", watchedAt: "2026-12-01T10:00:00Z" },
      },
    ]),
    eventRegistrations: onePageOf([
      {
        id: "reg-1",
        state: "enrolled",
        registeredAt: "2026-11-01T00:00:00Z",
        event: {
          id: "event-1",
          title: "Live Q&A",
          startTime: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          endTime: null,
          isAllDay: false,
          location: null,
          url: "/live/event-1",
        },
      },
    ]),
  });
}

async function dataRoute<T>(resource: string): Promise<T> {
  const browser = new RouteBrowser();
  const cookie = await sessionCookie(expiringSession({ accessTokenExpiresAt: Date.now() + 60 * 60_000 }));
  const response = await accountRoute(browser.request(`/api/account/${resource}`, { headers: { cookie } }), {
    params: Promise.resolve({ resource }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

describe("links the site gives relative to itself", () => {
  it("reach the browser as links on the site: a cover on Courses, an event's link on Events and the Overview", async () => {
    siteWithRelativeLinks();
    const onSite = (path: string) => new URL(path, site.url).toString();
    const courses = await dataRoute<CoursesPage>("courses");
    expect(courses.items.map((course) => course.imageUrl)).toEqual([onSite("/uploads/covers/watercolour-101.png")]);
    const events = await dataRoute<EventsPage>("events");
    expect(events.items.map((registration) => registration.event.url)).toEqual([onSite("/live/event-1")]);
    const overview = await dataRoute<Overview>("overview");
    expect(overview.upcomingEvents?.map((registration) => registration.event.url)).toEqual([onSite("/live/event-1")]);
    expect(overview.continueWatching.map((course) => course.imageUrl)).toEqual([onSite("/uploads/covers/watercolour-101.png")]);
  });
});
