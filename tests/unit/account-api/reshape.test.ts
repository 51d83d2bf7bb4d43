import { describe, expect, it } from "vitest";
import { coverSourcesOf } from "@/lib/account-api/cover-url";
import { buildCourseUrl, buildResumeUrl, safeHttpUrl } from "@/lib/account-api/lecture-url";
import { reshapeCourses } from "@/lib/account-api/pages/courses";
import type { CollectedConnection } from "@/lib/account-api/paging";
import { reshapeEvents } from "@/lib/account-api/pages/events";
import { reshapeOrders, type OrdersResult } from "@/lib/account-api/pages/orders";
import { reshapeOverview, type OverviewInput } from "@/lib/account-api/pages/overview";
import type { RawEnrolledCourse, RawEventRegistration } from "@/lib/account-api/fragments";
import { FIELD_UNKNOWN } from "@/lib/account-api/partial-answer";
import { reshapeEnrolledCourse, reshapePage } from "@/lib/account-api/reshape";

const config = {
  siteUrl: "https://school.example.com",
  lectureUrlTemplate: "{site}/courses/{slug}/lectures/{lectureId}?t={positionSeconds}",
  covers: coverSourcesOf({
    appUrl: "https://dashboard.example.com",
    siteUrl: "https://school.example.com",
    siteImageOrigins: ["https://cdn.example.com"],
    secureCookies: true,
  }),
};

function course(overrides: Partial<RawEnrolledCourse>): RawEnrolledCourse {
  return {
    slug: "watercolour-101",
    name: "Watercolour 101",
    imageUrl: "https://cdn.example.com/w.png",
    expireDate: null,
    hasLifetimeAccess: true,
    completionPercentage: 40,
    lastWatchedLecture: { lectureId: "L1", positionSeconds: 754, title: "Wet on wet", watchedAt: "2026-12-01T10:00:00Z" },
    ...overrides,
  };
}

function registration(id: string, state: string, startTime: string): RawEventRegistration {
  return {
    id,
    state,
    registeredAt: "2026-10-01T00:00:00Z",
    event: { id: `e-${id}`, title: id, startTime, endTime: null, isAllDay: false, location: null, url: null },
  };
}

describe("buildResumeUrl", () => {
  it("fills the default template", () => {
    expect(buildResumeUrl({ slug: "watercolour-101", lectureId: "L1", positionSeconds: 754 }, config)).toBe(
      "https://school.example.com/courses/watercolour-101/lectures/L1?t=754",
    );
  });

  it("URL-encodes the substituted values so they cannot change the URL's structure", () => {
    const url = buildResumeUrl({ slug: "a b/../c?x=1#y", lectureId: "L/1&t=0", positionSeconds: 12.9 }, config);
    expect(url).toBe("https://school.example.com/courses/a%20b%2F..%2Fc%3Fx%3D1%23y/lectures/L%2F1%26t%3D0?t=12");
    expect(new URL(url ?? "").searchParams.get("t")).toBe("12");
  });

  it("writes a position as whole seconds, never below 0", () => {
    expect(buildResumeUrl({ slug: "w", lectureId: "L1", positionSeconds: -5 }, config)).toBe(
      "https://school.example.com/courses/w/lectures/L1?t=0",
    );
  });

  it("encodes non-ASCII slugs and tolerates a trailing slash on the site", () => {
    expect(
      buildResumeUrl({ slug: "水彩", lectureId: "7", positionSeconds: 0 }, { ...config, siteUrl: "https://school.example.com/" }),
    ).toBe("https://school.example.com/courses/%E6%B0%B4%E5%BD%A9/lectures/7?t=0");
  });

  it("follows a custom template", () => {
    expect(
      buildResumeUrl(
        { slug: "s", lectureId: "9", positionSeconds: 65 },
        { ...config, lectureUrlTemplate: "{site}/watch/{lectureId}#t={positionSeconds}" },
      ),
    ).toBe("https://school.example.com/watch/9#t=65");
  });

  it("fills a name each time it appears, leaves a name it does not know as written, and trims every trailing slash of the site", () => {
    const template = "{site}/{slug}/lectures/{lectureId}/{slug}?t={positionSeconds}&from={unknown}";
    for (const siteUrl of ["https://school.example.com", "https://school.example.com//"]) {
      expect(buildResumeUrl({ slug: "a b", lectureId: "3", positionSeconds: 5 }, { siteUrl, lectureUrlTemplate: template })).toBe(
        "https://school.example.com/a%20b/lectures/3/a%20b?t=5&from={unknown}",
      );
    }
  });

  it("refuses anything but an absolute http(s) URL", () => {
    expect(
      buildResumeUrl(
        { slug: "s", lectureId: "1", positionSeconds: 0 },
        { siteUrl: "javascript:alert(1)//", lectureUrlTemplate: "{site}{lectureId}" },
      ),
    ).toBeNull();
    expect(
      buildResumeUrl({ slug: "s", lectureId: "1", positionSeconds: 0 }, { siteUrl: "", lectureUrlTemplate: "/courses/{lectureId}" }),
    ).toBeNull();
    expect(safeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(safeHttpUrl("https://meet.example.com/x")).toBe("https://meet.example.com/x");
    // What leaves is the URL as parsed, not the site's string: no space, tab or line break the parser dropped.
    expect(safeHttpUrl(" HTTPS://Meet.Example.com/a b\n/c\t")).toBe("https://meet.example.com/a%20b/c");
  });
});

describe("buildCourseUrl", () => {
  it("fills COURSE_URL_TEMPLATE, by default {site}/courses/{slug}, with the slug URL-encoded", () => {
    expect(buildCourseUrl("sourdough-baking", config)).toBe("https://school.example.com/courses/sourdough-baking");
    expect(buildCourseUrl("a b/../c?x=1", { ...config, courseUrlTemplate: "{site}/catalog/{slug}?ref=dashboard" })).toBe(
      "https://school.example.com/catalog/a%20b%2F..%2Fc%3Fx%3D1?ref=dashboard",
    );
  });

  it("refuses anything but an absolute http(s) URL", () => {
    expect(buildCourseUrl("s", { ...config, siteUrl: "javascript:alert(1)//", courseUrlTemplate: "{site}{slug}" })).toBeNull();
    expect(buildCourseUrl("s", { ...config, courseUrlTemplate: "/courses/{slug}" })).toBeNull();
  });
});

describe("reshapeCourses", () => {
  const result = (nodes: RawEnrolledCourse[], hasNextPage = false): CollectedConnection<RawEnrolledCourse> => ({
    nodes,
    totalCount: 130,
    nextCursor: hasNextPage ? "c24" : null,
  });

  it("turns raw enrollments into UI courses with a Resume URL", () => {
    const page = reshapeCourses(result([course({})], true), config);
    expect(page).toEqual({
      totalCount: 130,
      nextCursor: "c24",
      items: [
        {
          slug: "watercolour-101",
          name: "Watercolour 101",
          imageUrl: "https://cdn.example.com/w.png",
          courseUrl: "https://school.example.com/courses/watercolour-101",
          access: { kind: "lifetime" },
          completionPercentage: 40,
          lastWatched: {
            lectureId: "L1",
            positionSeconds: 754,
            title: "Wet on wet",
            watchedAt: "2026-12-01T10:00:00Z",
            resumeUrl: "https://school.example.com/courses/watercolour-101/lectures/L1?t=754",
          },
        },
      ],
    });
  });

  it("keeps lastWatched for an ended course (the UI hides Resume) and maps expiry", () => {
    const [ended] = reshapeCourses(result([course({ hasLifetimeAccess: false, expireDate: "2026-11-02T00:00:00Z" })]), config).items;
    expect(ended?.access).toEqual({ kind: "until", expiresAt: "2026-11-02T00:00:00Z" });
    expect(ended?.lastWatched?.resumeUrl).toBe("https://school.example.com/courses/watercolour-101/lectures/L1?t=754");
  });

  it("reads a cover the site gives relative to itself as the browser on the site's page would, and refuses any other scheme", () => {
    const imageOf = (imageUrl: string) => reshapeEnrolledCourse(course({ imageUrl }), config).imageUrl;
    expect(imageOf("/uploads/covers/w.png")).toBe("https://school.example.com/uploads/covers/w.png");
    expect(imageOf("uploads/w.png")).toBe("https://school.example.com/uploads/w.png");
    expect(imageOf("//cdn.example.com/w.png")).toBe("https://cdn.example.com/w.png");
    expect(imageOf("http://cdn.example.com/w.png")).toBe("http://cdn.example.com/w.png");
    for (const refused of [
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "blob:https://school.example.com/1",
      "ftp://cdn.example.com/w.png",
    ]) {
      expect(imageOf(refused), refused).toBeNull();
    }
  });

  it("falls back sensibly on missing fields and clamps progress", () => {
    const [item] = reshapeCourses(
      result([course({ name: "  ", imageUrl: "data:image/png;base64,AAAA", completionPercentage: 140, lastWatchedLecture: null })]),
      config,
    ).items;
    expect(item).toMatchObject({ name: "watercolour-101", imageUrl: null, completionPercentage: 100, lastWatched: null });
  });

  it("gives lifetime access precedence over a date, a Resume only with a safe URL, and a whole, non-negative position", () => {
    expect(reshapeEnrolledCourse(course({ hasLifetimeAccess: true, expireDate: "2026-01-01T00:00:00Z" }), config).access).toEqual({
      kind: "lifetime",
    });
    expect(reshapeEnrolledCourse(course({}), { ...config, lectureUrlTemplate: "javascript:alert('{slug}')" }).lastWatched).toBeNull();
    const at = (positionSeconds: number) =>
      reshapeEnrolledCourse(course({ lastWatchedLecture: { lectureId: "L1", positionSeconds, title: null, watchedAt: null } }), config)
        .lastWatched?.positionSeconds;
    expect([at(-3.7), at(12.9)]).toEqual([0, 12]);
  });

  it("counts a page's items when the site tells no total", () => {
    const node = { id: "o1" };
    expect(reshapePage({ nodes: [node, node], totalCount: null, pageInfo: null }, (raw) => raw.id)).toEqual({
      items: ["o1", "o1"],
      totalCount: 2,
      nextCursor: null,
    });
  });

  it("treats a course with neither lifetime access nor an expiry date as lifetime", () => {
    const [item] = reshapeCourses(result([course({ hasLifetimeAccess: false, expireDate: null })]), config).items;
    expect(item?.access).toEqual({ kind: "lifetime" });
  });

  it("counts what it read when the site tells no total, and keeps where to go on", () => {
    const page = reshapeCourses({ nodes: [course({ slug: "a" }), course({ slug: "b" })], totalCount: null, nextCursor: "500" }, config);
    expect(page).toMatchObject({ totalCount: 2, nextCursor: "500", items: [{ slug: "a" }, { slug: "b" }] });
  });
  it("never counts fewer courses than it read when the site's total is behind", () => {
    const page = reshapeCourses({ nodes: [course({ slug: "a" }), course({ slug: "b" })], totalCount: 1, nextCursor: null }, config);
    expect(page.totalCount).toBe(2);
  });
});

describe("reshapeOrders and reshapeEvents", () => {
  it("normalises currency and treats a zero refund as none", () => {
    const data: OrdersResult = {
      viewer: {
        orders: {
          totalCount: 1,
          pageInfo: { hasNextPage: false, endCursor: null },
          nodes: [
            {
              id: "o1",
              tradeNo: "T2026-0001",
              state: "paid",
              currency: "twd",
              amount: 1200,
              refundedAmount: 0,
              paidAt: "2026-11-01T00:00:00Z",
              createdAt: "2026-11-01T00:00:00Z",
              lineItems: [{ name: "Watercolour 101", amount: 1200, itemType: "CurriculumPlan" }],
            },
          ],
        },
      },
    };
    expect(reshapeOrders(data, config.siteUrl).items[0]).toMatchObject({ currency: "TWD", refundedAmount: null, tradeNo: "T2026-0001" });
  });

  it("offers the site's payment page for an order awaiting payment only, and never a page elsewhere", () => {
    const order = (state: string, paymentUrl: string | null): OrdersResult["viewer"]["orders"]["nodes"][number] => ({
      id: `${state}-${paymentUrl}`,
      tradeNo: "T2026-0002",
      state,
      currency: "usd",
      amount: 39,
      createdAt: "2026-12-04T00:00:00Z",
      lineItems: [{ name: "Sourdough starter guide", amount: 39, itemType: "Product" }],
      paymentUrl,
    });
    const paymentUrlsOf = (nodes: OrdersResult["viewer"]["orders"]["nodes"]) =>
      reshapeOrders(
        {
          viewer: { orders: { totalCount: nodes.length, pageInfo: { hasNextPage: false, endCursor: null }, nodes } },
        },
        config.siteUrl,
      ).items.map((item) => item.paymentUrl);
    expect(
      paymentUrlsOf([
        order("not_paid", "https://school.example.com/orders/T2026-0002/pay"),
        order("not_paid", "/orders/T2026-0002/pay"),
        order("not_paid", "https://pay.elsewhere.example/orders/T2026-0002"),
        order("not_paid", "//pay.elsewhere.example/orders/T2026-0002"),
        order("not_paid", "javascript:alert(1)"),
        order("not_paid", null),
        order("paid", "https://school.example.com/orders/T2026-0002/pay"),
      ]),
    ).toEqual([
      "https://school.example.com/orders/T2026-0002/pay",
      "https://school.example.com/orders/T2026-0002/pay",
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it("has no next cursor on the last page, even when the site sends one", () => {
    const page = reshapeOrders(
      { viewer: { orders: { totalCount: 1, pageInfo: { hasNextPage: false, endCursor: "x" }, nodes: [] } } },
      config.siteUrl,
    );
    expect(page.nextCursor).toBeNull();
  });

  it("reads an event without isAllDay as a timed one, and counts the registrations read when the site tells no total", () => {
    const raw = registration("a", "enrolled", "2026-12-05T10:00:00Z");
    const withoutAllDay: RawEventRegistration["event"] = { ...raw.event };
    delete withoutAllDay.isAllDay;
    const page = reshapeEvents({ totalCount: null, nextCursor: null, nodes: [{ ...raw, event: withoutAllDay }] }, config.siteUrl);
    expect(page.items[0]?.event.isAllDay).toBe(false);
    expect(page.totalCount).toBe(1);
  });

  it("drops event links that are not http(s), and reads one relative to the site on the site", () => {
    const raw = registration("a", "enrolled", "2026-12-05T10:00:00Z");
    const withUrl = (url: string) => ({ ...raw, event: { ...raw.event, url, location: " Hall A " } });
    const page = reshapeEvents(
      { totalCount: 2, nextCursor: "e1", nodes: [withUrl("javascript:alert(1)"), withUrl("/events/a/join")] },
      config.siteUrl,
    );
    expect(page.items.map(({ event }) => event)).toMatchObject([
      { url: null, location: "Hall A" },
      { url: "https://school.example.com/events/a/join" },
    ]);
    expect(page.nextCursor).toBe("e1");
  });
});

describe("reshapeOverview", () => {
  const now = new Date("2026-12-10T00:00:00Z");
  const data: OverviewInput = {
    name: "Mei",
    email: "mei@example.com",
    enrollmentsLeftOut: 0,
    enrollments: [
      course({ slug: "older", lastWatchedLecture: { lectureId: "1", positionSeconds: 1, title: null, watchedAt: "2026-12-01T00:00:00Z" } }),
      course({
        slug: "newest",
        lastWatchedLecture: { lectureId: "2", positionSeconds: 2, title: null, watchedAt: "2026-12-09T00:00:00Z" },
      }),
      course({
        slug: "ended-but-latest",
        hasLifetimeAccess: false,
        expireDate: "2026-12-09T12:00:00Z",
        lastWatchedLecture: { lectureId: "3", positionSeconds: 3, title: null, watchedAt: "2026-12-09T10:00:00Z" },
      }),
      course({ slug: "ends-in-10-days", hasLifetimeAccess: false, expireDate: "2026-12-20T00:00:00Z", lastWatchedLecture: null }),
      course({ slug: "ends-today", hasLifetimeAccess: false, expireDate: "2026-12-10T08:00:00Z", lastWatchedLecture: null }),
      course({ slug: "ends-in-a-month", hasLifetimeAccess: false, expireDate: "2027-01-10T00:00:00Z", lastWatchedLecture: null }),
    ],
    registrations: [
      registration("past", "checked_in", "2026-12-01T10:00:00Z"),
      registration("fourth", "enrolled", "2026-12-30T10:00:00Z"),
      registration("second", "enrolled", "2026-12-15T10:00:00Z"),
      registration("cancelled", "cancelled", "2026-12-11T10:00:00Z"),
      registration("first", "enrolled", "2026-12-12T10:00:00Z"),
      registration("third", "enrolled", "2026-12-20T10:00:00Z"),
    ],
  };

  it("picks the courses in progress with access, most recently watched first, ending-soon soonest first, and three upcoming events", () => {
    const overview = reshapeOverview(data, { ...config, now, timeZone: "UTC" });
    expect(overview.name).toBe("Mei");
    expect(overview.continueWatching.map((c) => c.slug)).toEqual(["newest", "older"]);
    expect(overview.endingSoon.map((c) => c.slug)).toEqual(["ends-today", "ends-in-10-days"]);
    expect(overview.upcomingEvents?.map((r) => r.id)).toEqual(["first", "second", "third"]);
    expect(overview.coursesLeftOut).toBe(0);
  });

  it("reads an upcoming event's link relative to the site on the site", () => {
    const first = registration("first", "enrolled", "2026-12-12T10:00:00Z");
    const relative = { ...first, event: { ...first.event, url: "/live/first" } };
    const overview = reshapeOverview({ ...data, registrations: [relative] }, { ...config, now, timeZone: "UTC" });
    expect(overview.upcomingEvents?.[0]?.event.url).toBe("https://school.example.com/live/first");
  });

  it("keeps at most three courses under Continue watching, never a finished one", () => {
    const watched = (slug: string, day: number, completionPercentage = 40) =>
      course({
        slug,
        completionPercentage,
        lastWatchedLecture: { lectureId: "1", positionSeconds: 1, title: null, watchedAt: `2026-12-0${day}T00:00:00Z` },
      });
    const overview = reshapeOverview(
      { ...data, enrollments: [watched("a", 1), watched("b", 2), watched("done", 9, 100), watched("c", 3), watched("d", 4)] },
      { ...config, now, timeZone: "UTC" },
    );
    expect(overview.continueWatching.map((c) => c.slug)).toEqual(["d", "c", "b"]);
  });

  it("puts a course watched without a time after the courses watched at a known time", () => {
    const watched = (slug: string, watchedAt: string | null) =>
      course({ slug, lastWatchedLecture: { lectureId: "1", positionSeconds: 1, title: null, watchedAt } });
    const overview = reshapeOverview(
      {
        ...data,
        enrollments: [watched("untimed", null), watched("older", "2026-12-01T00:00:00Z"), watched("newer", "2026-12-05T00:00:00Z")],
      },
      { ...config, now, timeZone: "UTC" },
    );
    expect(overview.continueWatching.map((c) => c.slug)).toEqual(["newer", "older", "untimed"]);
  });

  it("counts the courses that may be in progress where the site failed to say where they were left off", () => {
    const unknown = (slug: string, extra: Partial<RawEnrolledCourse> = {}) => course({ slug, lastWatchedLecture: FIELD_UNKNOWN, ...extra });
    const enrollments = [
      unknown("a"),
      unknown("b", { completionPercentage: null }),
      unknown("not-started", { completionPercentage: 0 }),
      unknown("finished", { completionPercentage: 100 }),
      unknown("ended", { hasLifetimeAccess: false, expireDate: "2026-12-01T00:00:00Z" }),
      ...data.enrollments,
    ];
    const overview = reshapeOverview({ ...data, enrollments }, { ...config, now, timeZone: "UTC" });
    expect(overview.continueWatchingUnknown).toBe(2);
    // At 0 % the site says the course was never started: nowhere to have left off, nothing unknown.
    const atZero = reshapeEnrolledCourse(unknown("not-started", { completionPercentage: 0 }), config);
    expect(atZero).toMatchObject({ completionPercentage: 0, lastWatched: null });
    expect(atZero).not.toHaveProperty("lastWatchedUnknown");
    // The same for a number the site sends that shows as 0 % (a fraction, a negative): the member sees 0 %.
    for (const shownAsZero of [0.4, -1]) {
      const course = reshapeEnrolledCourse(unknown("not-started", { completionPercentage: shownAsZero }), config);
      expect(course).toMatchObject({ completionPercentage: 0, lastWatched: null });
      expect(course).not.toHaveProperty("lastWatchedUnknown");
    }
    expect(overview.continueWatching.map((c) => c.slug)).toEqual(["newest", "older"]);
    expect(reshapeOverview(data, { ...config, now, timeZone: "UTC" }).continueWatchingUnknown).toBe(0);
  });

  it("greets by email when the site has no name, and copes with no data", () => {
    const empty: OverviewInput = { name: null, email: "mei@example.com", enrollments: [], enrollmentsLeftOut: 0, registrations: [] };
    expect(reshapeOverview(empty, { ...config, now, timeZone: "UTC" })).toEqual({
      name: "mei@example.com",
      continueWatching: [],
      continueWatchingUnknown: 0,
      endingSoon: [],
      coursesLeftOut: 0,
      upcomingEvents: [],
    });
  });

  it("greets by email when the site's name is only blanks", () => {
    const blank: OverviewInput = { name: "   ", email: "mei@example.com", enrollments: [], enrollmentsLeftOut: 0, registrations: [] };
    expect(reshapeOverview(blank, { ...config, now, timeZone: "UTC" }).name).toBe("mei@example.com");
  });

  it("on a site without names, registrations or the optional course fields, shows what it has", () => {
    const seedOnly: OverviewInput = {
      email: "mei@example.com",
      enrollments: [
        { slug: "intro", expireDate: null, hasLifetimeAccess: true, lastWatchedLecture: { lectureId: "7", positionSeconds: 42 } },
      ],
      enrollmentsLeftOut: null,
      registrations: null,
    };
    const overview = reshapeOverview(seedOnly, { ...config, now, timeZone: "UTC" });
    expect(overview).toMatchObject({ name: "mei@example.com", upcomingEvents: null, coursesLeftOut: null });
    expect(overview.continueWatching[0]).toMatchObject({ slug: "intro", name: "intro", imageUrl: null, completionPercentage: null });
    expect(overview.continueWatching[0]?.lastWatched).toMatchObject({ lectureId: "7", positionSeconds: 42, title: null, watchedAt: null });
    expect(overview.continueWatching[0]?.lastWatched?.resumeUrl).toContain("/courses/intro/lectures/7?t=42");
  });
});
