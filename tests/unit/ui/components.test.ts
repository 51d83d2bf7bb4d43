import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CourseCard } from "@/components/courses/course-card";
import { EventItem } from "@/components/events/event-item";
import { OrderCard } from "@/components/orders/order-card";
import { I18nProvider, type I18nProviderProps } from "@/lib/i18n/provider";
import type { Locale } from "@/lib/i18n/locales";
import type { EventRegistration, Order } from "@/lib/types/account";
import { WATERCOLOUR_COURSE } from "../../support/course-fixture";

const NOW = Date.parse("2026-12-10T00:00:00Z");

function render(node: ReactNode, locale: Locale = "en"): string {
  return renderToStaticMarkup(createElement(I18nProvider, { locale, timeZone: "Asia/Taipei", now: NOW } as I18nProviderProps, node));
}

/** The text content of an element's HTML, as an accessible name would read it (no aria-hidden parts). */
function textOf(html: string): string {
  return html
    .replace(/<span aria-hidden="true"[^>]*>[^<]*<\/span>/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .trim();
}

/** Every link's href, target and accessible name. */
function linksOf(html: string): { href: string; name: string; target: string | undefined }[] {
  return [...html.matchAll(/<a ([^>]*)>(.*?)<\/a>/g)].map((match) => ({
    href: /href="([^"]+)"/.exec(match[1] ?? "")?.[1] ?? "",
    name: textOf(match[2] ?? ""),
    target: /target="([^"]+)"/.exec(match[1] ?? "")?.[1],
  }));
}

const course = WATERCOLOUR_COURSE;

describe("CourseCard", () => {
  it("links Resume to the lecture with a name that starts with Resume", () => {
    const html = render(createElement(CourseCard, { course }));
    const link = /<a [^>]*href="([^"]+)"[^>]*>(.*?)<\/a>/.exec(html);
    expect(link?.[1]).toBe("https://school.example.com/courses/watercolour-101/lectures/L1?t=3725");
    expect(textOf(link?.[2] ?? "")).toBe("Resume at 1:02:05 – Watercolour 101");
    expect(html).toContain("Access ends in 3 days");
    expect(html).toContain('data-tone="warning"');
    expect(html).toMatch(/role="progressbar"[^>]*aria-label="Progress: Watercolour 101"/);
  });

  it("offers Renew access to the course page, and neither Resume nor Start, once access has ended", () => {
    const ended = { ...course, access: { kind: "until", expiresAt: "2026-11-02T10:00:00+08:00" } } as const;
    const html = render(createElement(CourseCard, { course: ended }));
    const links = linksOf(html);
    expect(links).toEqual([
      { href: "https://school.example.com/courses/watercolour-101", name: "Renew access – Watercolour 101", target: "_top" },
    ]);
    expect(html).toContain("Access ended on 2 Nov 2026");
    expect(html).not.toContain("Add a reminder");
  });

  it("offers Start course, in the top window, for a course with access that was never started", () => {
    const fresh = { ...course, lastWatched: null, access: { kind: "until", expiresAt: "2027-06-01T00:00:00Z" } } as const;
    const html = render(createElement(CourseCard, { course: fresh }));
    expect(linksOf(html)).toEqual([
      { href: "https://school.example.com/courses/watercolour-101", name: "Start course – Watercolour 101", target: "_top" },
    ]);
    expect(html).not.toContain("Add a reminder");
    expect(render(createElement(CourseCard, { course: fresh }), "zh-TW")).toContain("開始上課");
  });

  it("offers Add a reminder exactly while access ends within 30 days", () => {
    expect(textOf(render(createElement(CourseCard, { course })))).toContain("Add a reminder – Watercolour 101");
    const later = { ...course, access: { kind: "until", expiresAt: "2027-01-09T01:00:00Z" } } as const;
    expect(render(createElement(CourseCard, { course: later }))).not.toContain("Add a reminder");
    expect(render(createElement(CourseCard, { course: { ...course, access: { kind: "lifetime" } } }))).not.toContain("Add a reminder");
    expect(render(createElement(CourseCard, { course }), "zh-TW")).toContain("加入到期提醒");
  });

  it("words its action by progress: 0 % Start course, 100 % Watch again, otherwise Resume at m:ss", () => {
    const at = (completionPercentage: number) =>
      linksOf(render(createElement(CourseCard, { course: { ...course, completionPercentage } })));
    expect(at(0)[0]).toMatchObject({ href: "https://school.example.com/courses/watercolour-101", name: "Start course – Watercolour 101" });
    expect(at(100)[0]).toMatchObject({
      href: "https://school.example.com/courses/watercolour-101/lectures/L1?t=3725",
      name: "Watch again – Watercolour 101",
    });
    expect(at(55)[0]?.name).toBe("Resume at 1:02:05 – Watercolour 101");
  });

  it("never offers a reminder that would fall today or in the past: within a day of the end, only the course's action", () => {
    // NOW is 08:00 in Taipei on 10 Dec; access ending tomorrow (11 Dec) would remind "today".
    const tomorrow = { ...course, access: { kind: "until", expiresAt: "2026-12-11T12:00:00+08:00" } } as const;
    const html = render(createElement(CourseCard, { course: tomorrow }));
    expect(html).not.toContain("Add a reminder");
    expect(linksOf(html)[0]?.name).toBe("Resume at 1:02:05 – Watercolour 101");
    const inTwoDays = { ...course, access: { kind: "until", expiresAt: "2026-12-12T12:00:00+08:00" } } as const;
    expect(render(createElement(CourseCard, { course: inTwoDays }))).toContain("Add a reminder");
  });

  it("speaks Traditional Chinese", () => {
    const html = render(createElement(CourseCard, { course }), "zh-TW");
    expect(html).toContain("從 1:02:05 繼續");
    expect(html).toContain("觀看權限將在 3 天後到期");
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
    const html = render(createElement(OrderCard, { order }));
    expect(html).toContain("Order T2026-0001");
    expect(html).toContain("Paid 1 Nov 2026");
    expect(textOf(html)).toMatch(/Refunded\s*NT\$1,200/);
    expect(textOf(html)).not.toMatch(/Refunded:?\s*Refunded/);
    expect(html).toContain("Course");
  });

  it("shows a partial refund on its own line, one amount per line", () => {
    const html = render(createElement(OrderCard, { order: { ...order, state: "paid", refundedAmount: 200 } }));
    expect(textOf(html)).toMatch(/Total\s*NT\$1,200/);
    expect(textOf(html)).toMatch(/Refunded\s*NT\$200/);
  });

  it("offers Complete payment for an order awaiting payment when the site gives the link, and only then", () => {
    const awaiting = {
      ...order,
      state: "not_paid",
      refundedAmount: null,
      paidAt: null,
      paymentUrl: "https://school.example.com/orders/T1/pay",
    };
    expect(render(createElement(OrderCard, { order: awaiting }))).toMatch(
      /<a[^>]*href="https:\/\/school.example.com\/orders\/T1\/pay"[^>]*>Complete payment<\/a>/,
    );
    expect(render(createElement(OrderCard, { order: { ...awaiting, paymentUrl: null } }))).not.toContain("Complete payment");
    expect(render(createElement(OrderCard, { order: awaiting }), "zh-TW")).toContain("完成付款");
  });

  it("writes the US dollar with its country in English, beside NT$", () => {
    const usd = { ...order, currency: "USD", amount: 129, refundedAmount: null, lineItems: [] };
    expect(textOf(render(createElement(OrderCard, { order: usd })))).toMatch(/Total\s*US\$129\.00/);
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
    const html = render(createElement(EventItem, { registration }));
    expect(html).toContain('dateTime="2026-12-20"');
    expect(html).toContain("All day");
    expect(html).toContain("Add to calendar");
    expect(html).toContain("Registered");
  });

  it("marks a cancelled registration and offers no calendar file", () => {
    const html = render(createElement(EventItem, { registration: { ...registration, state: "cancelled" } }));
    expect(html).toContain("Cancelled");
    expect(html).not.toContain("Add to calendar");
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
    const html = render(createElement(SignedOutLanding, { reason }));
    expect(textOf(html).replace(/&#x27;/g, "'")).toContain(text);
  });
});
