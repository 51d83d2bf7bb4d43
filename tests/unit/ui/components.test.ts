// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { createElement, Suspense, type ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";

import { CourseCard } from "@/components/courses/course-card";
import { ContinueWatching } from "@/components/overview/continue-watching";
import { EndingSoon } from "@/components/overview/ending-soon";
import { EventItem } from "@/components/events/event-item";
import { SiteInfoProvider } from "@/components/layout/site-info";
import { OrderCard } from "@/components/orders/order-card";
import type { Locale } from "@/lib/i18n/locales";
import type { EventRegistration, Order } from "@/lib/types/account";

import { WATERCOLOUR_COURSE } from "../../support/course-fixture";
import { atFixedTime } from "../../support/fixed-clock";
import { renderInLocale } from "../../support/render-ui";

const NOW = Date.parse("2026-12-10T00:00:00Z");

// The provider's `now` is the server's moment; once mounted, the views read the clock: the same moment.
atFixedTime(NOW);

function render(node: ReactNode, locale: Locale = "en"): HTMLElement {
  return renderInLocale(node, locale, { timeZone: "Asia/Taipei", now: NOW }).container;
}

/** Every link as href and target, in order. */
function links(): { href: string | null; target: string | null }[] {
  return screen.queryAllByRole("link").map((link) => ({ href: link.getAttribute("href"), target: link.getAttribute("target") }));
}

const course = WATERCOLOUR_COURSE;
const COURSE_PAGE = "https://school.example.com/courses/watercolour-101";

describe("CourseCard", () => {
  it("links Resume to the lecture with a name that starts with Resume", () => {
    const card = render(createElement(CourseCard, { course }));
    const resume = screen.getByRole("link", { name: "Resume at 1:02:05 – Watercolour 101" });
    expect(resume.getAttribute("href")).toBe("https://school.example.com/courses/watercolour-101/lectures/L1?t=3725");
    expect(screen.getByText("Access ends in 3 days").closest("[data-tone]")?.getAttribute("data-tone")).toBe("warning");
    expect(screen.getByRole("progressbar", { name: "Progress: Watercolour 101" })).toBeDefined();
    expect(card.textContent).toContain("Access ends in 3\u00a0days");
  });

  it("names the progress bar with the full-width colon of Traditional Chinese", () => {
    render(createElement(CourseCard, { course }), "zh-TW");
    expect(screen.getByRole("progressbar", { name: "進度：Watercolour 101" })).toBeDefined();
  });

  it("offers Renew access to the course page, and neither Resume nor Start, once access has ended", () => {
    const ended = { ...course, access: { kind: "until", expiresAt: "2026-11-02T10:00:00+08:00" } } as const;
    const card = render(createElement(CourseCard, { course: ended }));
    expect(screen.getByRole("link", { name: "Renew access – Watercolour 101" })).toBeDefined();
    expect(links()).toEqual([{ href: COURSE_PAGE, target: "_top" }]);
    expect(card.textContent).toContain("Access ended on 2 Nov 2026");
    expect(screen.queryByRole("button", { name: /Add a reminder/ })).toBeNull();
  });

  it("offers Start course, in the top window, for a course with access that was never started", () => {
    const fresh = { ...course, lastWatched: null, access: { kind: "until", expiresAt: "2027-06-01T00:00:00Z" } } as const;
    render(createElement(CourseCard, { course: fresh }));
    expect(screen.getByRole("link", { name: "Start course – Watercolour 101" })).toBeDefined();
    expect(links()).toEqual([{ href: COURSE_PAGE, target: "_top" }]);
    expect(screen.queryByRole("button", { name: /Add a reminder/ })).toBeNull();
    cleanup();
    render(createElement(CourseCard, { course: fresh }), "zh-TW");
    expect(screen.getByRole("link", { name: /^開始上課/ })).toBeDefined();
  });

  it("offers Add a reminder exactly while access ends within 30 days", () => {
    render(createElement(CourseCard, { course }));
    expect(screen.getByRole("button", { name: "Add a reminder – Watercolour 101" })).toBeDefined();
    cleanup();
    for (const access of [{ kind: "until", expiresAt: "2027-01-09T01:00:00Z" }, { kind: "lifetime" }] as const) {
      render(createElement(CourseCard, { course: { ...course, access } }));
      expect(screen.queryByRole("button", { name: /Add a reminder/ }), access.kind).toBeNull();
      cleanup();
    }
    render(createElement(CourseCard, { course }), "zh-TW");
    expect(screen.getByRole("button", { name: /^加入到期提醒/ })).toBeDefined();
  });

  it("words its action by progress: 0 % Start course, 100 % Watch again, otherwise Resume at m:ss", () => {
    /** The card's first link (its one primary action), found by the name it must have. */
    const actionAt = (completionPercentage: number, name: string) => {
      cleanup();
      render(createElement(CourseCard, { course: { ...course, completionPercentage } }));
      const action = screen.getByRole("link", { name });
      expect(screen.getAllByRole("link")[0]).toBe(action);
      return action.getAttribute("href");
    };
    expect(actionAt(0, "Start course – Watercolour 101")).toBe(COURSE_PAGE);
    expect(actionAt(100, "Watch again – Watercolour 101")).toBe("https://school.example.com/courses/watercolour-101/lectures/L1?t=3725");
    expect(actionAt(55, "Resume at 1:02:05 – Watercolour 101")).toBe(
      "https://school.example.com/courses/watercolour-101/lectures/L1?t=3725",
    );
  });

  it("at a lecture's start says Resume, not Resume at 0:00, and the Overview names the lecture without a clock", () => {
    const atStart = { ...course, lastWatched: { ...course.lastWatched!, positionSeconds: 0.4 } };
    render(createElement(CourseCard, { course: atStart }));
    expect(screen.getByRole("link", { name: "Resume – Watercolour 101" }).getAttribute("href")).toBe(course.lastWatched!.resumeUrl);
    cleanup();
    render(createElement(ContinueWatching, { courses: [atStart, { ...course, slug: "other", name: "Other" }], unknown: 0 }));
    const lines = screen.getAllByRole("article").map((card) => card.querySelector("p")?.textContent);
    expect(lines).toEqual([course.lastWatched!.title, `${course.lastWatched!.title}\u00a0· 1:02:05`]);
    cleanup();
    render(createElement(CourseCard, { course: atStart }), "zh-TW");
    expect(screen.getByRole("link", { name: "繼續觀看 – Watercolour 101" })).toBeDefined();
  });

  it("where the site failed to say where the member left off, offers Open course and says so, never Start course", () => {
    const unknown = { ...course, lastWatched: null, lastWatchedUnknown: true } as const;
    for (const completionPercentage of [0, 55, 100, null]) {
      const card = render(createElement(CourseCard, { course: { ...unknown, completionPercentage } }));
      expect(screen.getAllByRole("link")[0], String(completionPercentage)).toBe(
        screen.getByRole("link", { name: "Open course – Watercolour 101" }),
      );
      expect(screen.getByRole("link", { name: "Open course – Watercolour 101" }).getAttribute("href")).toBe(COURSE_PAGE);
      expect(card.textContent).toContain("Where you left off could not be loaded.");
      expect(screen.queryByRole("link", { name: /^(Start course|Resume|Watch again)/ })).toBeNull();
      cleanup();
    }
    // Once access has ended, Renew access as for any course.
    const ended = { ...unknown, access: { kind: "until", expiresAt: "2026-11-02T10:00:00+08:00" } } as const;
    const endedCard = render(createElement(CourseCard, { course: ended }));
    expect(screen.getByRole("link", { name: "Renew access – Watercolour 101" })).toBeDefined();
    expect(endedCard.textContent).not.toContain("Where you left off");
    cleanup();
    const card = render(createElement(CourseCard, { course: unknown }), "zh-TW");
    expect(screen.getByRole("link", { name: /^開啟課程/ })).toBeDefined();
    expect(card.textContent).toContain("無法載入上次看到的位置。");
  });

  it("offers a reminder for access ending tomorrow (this evening), never for access ending today: then only the course's action", () => {
    // NOW is 08:00 in Taipei on 10 Dec: access ending tomorrow (11 Dec) is reminded at 19:00 tonight.
    const tomorrow = { ...course, access: { kind: "until", expiresAt: "2026-12-11T12:00:00+08:00" } } as const;
    render(createElement(CourseCard, { course: tomorrow }));
    expect(screen.getByRole("button", { name: "Add a reminder – Watercolour 101" })).toBeDefined();
    expect(screen.getAllByRole("link")[0]).toBe(screen.getByRole("link", { name: "Resume at 1:02:05 – Watercolour 101" }));
    cleanup();
    const today = { ...course, access: { kind: "until", expiresAt: "2026-12-10T20:00:00+08:00" } } as const;
    render(createElement(CourseCard, { course: today }));
    expect(screen.queryByRole("button", { name: /Add a reminder/ })).toBeNull();
    expect(screen.getAllByRole("link")[0]).toBe(screen.getByRole("link", { name: "Resume at 1:02:05 – Watercolour 101" }));
    cleanup();
    const inTwoDays = { ...course, access: { kind: "until", expiresAt: "2026-12-12T12:00:00+08:00" } } as const;
    render(createElement(CourseCard, { course: inTwoDays }));
    expect(screen.getByRole("button", { name: /Add a reminder/ })).toBeDefined();
  });

  it("speaks Traditional Chinese", () => {
    const card = render(createElement(CourseCard, { course }), "zh-TW");
    expect(screen.getByRole("link", { name: /^從 1:02:05 繼續/ })).toBeDefined();
    expect(card.textContent).toContain("觀看權限將在 3\u00a0天後到期");
  });
});

describe("ContinueWatching", () => {
  it("says how many courses may be in progress where the site failed to say, and leads to Courses", () => {
    render(createElement(ContinueWatching, { courses: [], unknown: 0 }));
    expect(screen.getByText("Nothing in progress yet. Start a lecture and it will appear here.")).toBeDefined();
    cleanup();
    render(createElement(ContinueWatching, { courses: [], unknown: 2 }));
    expect(screen.queryByText(/Nothing in progress/)).toBeNull();
    expect(screen.getByText(/Where you left off in 2 courses could not be loaded\./)).toBeDefined();
    expect(screen.getByRole("link", { name: "All courses" }).getAttribute("href")).toBe("/courses");
    cleanup();
    render(createElement(ContinueWatching, { courses: [course], unknown: 1 }));
    expect(screen.getAllByRole("article")).toHaveLength(1);
    expect(screen.getByText(/Where you left off in 1 course could not be loaded\./)).toBeDefined();
    cleanup();
    render(createElement(ContinueWatching, { courses: [], unknown: 3 }), "zh-TW");
    expect(screen.getByText(/有 3 門課程無法載入上次看到的位置。/)).toBeDefined();
  });

  it("with every course withheld by the site, says how many and nothing else: no empty list, no 'Nothing in progress'", () => {
    render(createElement(ContinueWatching, { courses: [], unknown: 0, unavailable: 4 }));
    const section = screen.getByRole("region", { name: "Continue watching" });
    expect(section.textContent).toBe("Continue watching4\u00a0courses could not be loaded from the site.");
    expect(screen.queryByRole("list")).toBeNull();
  });

  it("offers Retry beside the note of courses the site could not give, which asks again, and holds it while asking", () => {
    const onRetry = vi.fn();
    render(createElement(ContinueWatching, { courses: [course], unknown: 0, unavailable: 1, retry: { onRetry, retrying: false } }));
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    cleanup();
    render(createElement(ContinueWatching, { courses: [course], unknown: 0, unavailable: 1, retry: { onRetry, retrying: true } }));
    expect(screen.getByRole("button", { name: "Retry" }).getAttribute("aria-busy")).toBe("true");
    cleanup();
    // No note, no Retry.
    render(createElement(ContinueWatching, { courses: [course], unknown: 0, unavailable: 0, retry: { onRetry, retrying: false } }));
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });
});

describe("EndingSoon", () => {
  const endingIn3Days = { ...course, access: { kind: "until", expiresAt: "2026-12-13T12:00:00+08:00" } } as const;

  it("says no course access ends in 30 days only when it saw every course", () => {
    render(createElement(EndingSoon, { courses: [], leftOut: 0 }));
    expect(screen.getByText("No course access ends in the next 30 days.")).toBeDefined();
    cleanup();
    render(createElement(EndingSoon, { courses: [], leftOut: 0, unavailable: 0 }), "zh-TW");
    expect(screen.getByText("未來 30 天內沒有課程到期。")).toBeDefined();
  });

  it("with courses the site could not give, or past the overview's bound, claims no more than the courses it loaded", () => {
    for (const [leftOut, unavailable] of [
      [0, 2],
      [12, 0],
      [null, 0],
      [null, 1],
    ] as const) {
      const section = render(createElement(EndingSoon, { courses: [], leftOut, unavailable }));
      const label = `left out ${String(leftOut)}, unavailable ${unavailable}`;
      expect(screen.queryByText(/No course access ends/), label).toBeNull();
      expect(screen.getByText("No course that loaded here has access ending in the next 30 days."), label).toBeDefined();
      expect(screen.getByRole("link", { name: "All courses" }).getAttribute("href"), label).toBe("/courses");
      if (leftOut !== 0) expect(section.textContent, label).toMatch(/And (12\u00a0)?more courses, not checked here\./);
      cleanup();
    }
    render(createElement(EndingSoon, { courses: [], leftOut: 0, unavailable: 1 }), "zh-TW");
    expect(screen.getByText("此處已載入的課程中，沒有在未來 30 天內到期的。")).toBeDefined();
    cleanup();
    // A course ending soon is listed as ever, whatever else the overview did not see.
    render(createElement(EndingSoon, { courses: [endingIn3Days], leftOut: 0, unavailable: 2 }));
    expect(screen.getByText(course.name)).toBeDefined();
    expect(screen.queryByText(/has access ending in the next 30 days/)).toBeNull();
  });
});

describe("OrderCard", () => {
  const order: Order = {
    id: "o1",
    tradeNo: "T2026-0001",
    state: "refunded",
    currency: "TWD",
    amount: 1200,
    refundedAmount: 1200,
    paidAt: "2026-11-01T02:00:00Z",
    createdAt: "2026-11-01T01:00:00Z",
    paymentUrl: null,
    lineItems: [{ name: "Watercolour 101", amount: 1200, itemType: "CurriculumPlan" }],
  };

  it("shows the trade number, the state in words and the refund", () => {
    const card = render(createElement(OrderCard, { order }));
    expect(screen.getByRole("heading", { name: /Order T2026-0001/ })).toBeDefined();
    expect(card.textContent).toContain("Paid 1 Nov 2026");
    expect(card.textContent).toMatch(/Refunded\s*NT\$1,200/);
    expect(card.textContent).not.toMatch(/Refunded:?\s*Refunded/);
    expect(card.textContent).toContain("Course");
  });

  it("shows a partial refund on its own line, one amount per line", () => {
    const card = render(createElement(OrderCard, { order: { ...order, state: "paid", refundedAmount: 200 } }));
    expect(card.textContent).toMatch(/Total\s*NT\$1,200/);
    expect(card.textContent).toMatch(/Refunded\s*NT\$200/);
  });

  it("offers Complete payment for an order awaiting payment when the site gives the link, and only then", () => {
    const awaiting = {
      ...order,
      state: "not_paid",
      refundedAmount: null,
      paidAt: null,
      paymentUrl: "https://school.example.com/orders/T1/pay",
    };
    render(createElement(OrderCard, { order: awaiting }));
    expect(screen.getByRole("link", { name: "Complete payment" }).getAttribute("href")).toBe("https://school.example.com/orders/T1/pay");
    cleanup();
    render(createElement(OrderCard, { order: { ...awaiting, paymentUrl: null } }));
    expect(screen.queryByRole("link", { name: "Complete payment" })).toBeNull();
    // Without the link, the order still says where to pay: never an unpaid order with no way on.
    expect(screen.getByText("To pay for this order, go to the site.")).toBeDefined();
    cleanup();
    const site = { name: "Demo Academy", url: "https://school.example.com/" };
    render(createElement(SiteInfoProvider, { site }, createElement(OrderCard, { order: { ...awaiting, paymentUrl: null } })));
    expect(screen.getByRole("link", { name: "To pay for this order, go to Demo Academy." }).getAttribute("href")).toBe(site.url);
    cleanup();
    render(createElement(OrderCard, { order: awaiting }), "zh-TW");
    expect(screen.getByRole("link", { name: "完成付款" })).toBeDefined();
  });

  it("writes a state and an item type the site added later in words, in a neutral tone", () => {
    const later = { ...order, state: "partially_refunded", lineItems: [{ name: "Voucher", amount: 1200, itemType: "GiftCard" }] };
    const card = render(createElement(OrderCard, { order: later }));
    expect(screen.getByText("Partially refunded").getAttribute("data-tone")).toBe("neutral");
    expect(card.textContent).toContain("Gift card");
    expect(card.textContent).not.toContain("partially_refunded");
  });

  it("writes the US dollar with its country in English, beside NT$", () => {
    const usd = { ...order, currency: "USD", amount: 129, refundedAmount: null, lineItems: [] };
    expect(render(createElement(OrderCard, { order: usd })).textContent).toMatch(/Total\s*US\$129\.00/);
  });
});

describe("EventItem", () => {
  const registration: EventRegistration = {
    id: "r1",
    state: "enrolled",
    registeredAt: "2026-10-01T00:00:00Z",
    event: {
      id: "e1",
      title: "Open Studio",
      startTime: "2026-12-20T00:00:00+08:00",
      endTime: null,
      isAllDay: true,
      location: "Taipei",
      url: null,
    },
  };

  it("shows an all-day upcoming event as a date with Add to calendar", () => {
    const item = render(createElement(EventItem, { registration }));
    expect(item.querySelector("time")?.getAttribute("datetime")).toBe("2026-12-20");
    // The dot stays with the date: a wrapped line never starts with it.
    expect(item.querySelector("time")?.parentElement?.textContent).toMatch(/\u00a0· All day$/);
    expect(screen.getByRole("button", { name: /Add to calendar/ })).toBeDefined();
    expect(item.textContent).toContain("Registered");
  });

  it("writes a registration state the site added later in words, in a neutral tone", () => {
    render(createElement(EventItem, { registration: { ...registration, state: "onWaitlist" } }));
    expect(screen.getByText("On waitlist").getAttribute("data-tone")).toBe("neutral");
  });

  it("marks a cancelled registration and offers no calendar file", () => {
    const item = render(createElement(EventItem, { registration: { ...registration, state: "cancelled" } }));
    expect(item.textContent).toContain("Cancelled");
    expect(screen.queryByRole("button", { name: /Add to calendar/ })).toBeNull();
  });
});

describe("the signed-out page", () => {
  it.each([
    ["signed_out", "You are signed out."],
    ["revoked", "no longer grants this app access"],
    ["signed_out_locally", "the site did not confirm that it ended this sign-in"],
    ["revoke_refused", "the site refused to withdraw this app's access"],
  ] as const)("says plainly what happened for %s", async (reason, text) => {
    const { SignedOutLanding } = await import("@/components/layout/signed-out-landing");
    const page = render(createElement(SignedOutLanding, { reason }));
    expect(page.textContent).toContain(text);
  });

  it("as a member page shows it, loaded on demand: Sign in comes back to that page", async () => {
    const { SignedOutLandingOnDemand } = await import("@/components/layout/signed-out-landing-on-demand");
    render(createElement(Suspense, null, createElement(SignedOutLandingOnDemand, { returnTo: "/courses", reason: "revoked" })));
    const signIn = await screen.findByRole("link", { name: "Sign in" });
    expect(signIn.getAttribute("href")).toBe("/api/auth/login?returnTo=%2Fcourses");
    expect(document.body.textContent).toContain("no longer grants this app access");
  });

  it.each([
    [false, "open Demo Academy and sign out there too", ["https://school.example.com"]],
    [true, "also sign out of Demo Academy itself, on the page around this panel", []],
  ] as const)(
    "still signed in at the site (embedded: %s): says where to sign out of it, and links to it only outside the panel",
    async (embedded, words, siteLinks) => {
      const [{ SignedOutLanding }, { EmbeddingProvider }, { SiteInfoProvider }] = await Promise.all([
        import("@/components/layout/signed-out-landing"),
        import("@/components/layout/embedding-context"),
        import("@/components/layout/site-info"),
      ]);
      const landing = createElement(SignedOutLanding, { reason: "signed_out", siteSession: "open" });
      const site = createElement(SiteInfoProvider, { site: { name: "Demo Academy", url: "https://school.example.com" } }, landing);
      const page = render(createElement(EmbeddingProvider, { value: { embedded, parentOrigins: [] } }, site));
      expect(page.textContent).toContain(words);
      expect(
        links()
          .map(({ href }) => href)
          .filter((href) => href?.startsWith("https://school.example.com")),
      ).toEqual(siteLinks);
    },
  );
});
