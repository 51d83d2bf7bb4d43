// @vitest-environment happy-dom
import { cleanup } from "@testing-library/react";
import { createElement } from "react";
import { describe, expect, it } from "vitest";

import { AccessBadge } from "@/components/courses/access-badge";
import { EventItem } from "@/components/events/event-item";
import { OrderCard } from "@/components/orders/order-card";
import { describeAccess } from "@/lib/format/access";
import { formatCurrencyPieces } from "@/lib/format/currency";
import { formatDate, formatDateTime, formatTime } from "@/lib/format/datetime";
import { formatEventWhen } from "@/lib/format/events";
import { buildAccessReminderIcs } from "@/lib/format/ics";
import { dateTimeFormat } from "@/lib/format/intl-formatters";
import { formatRelativeTime } from "@/lib/format/relative";
import { describeTimeZone } from "@/lib/format/time-zone-name";
import type { EnglishFormat, FormatLocale } from "@/lib/i18n/format-locale";
import type { Order } from "@/lib/types/account";

import { WATERCOLOUR_COURSE } from "../../support/course-fixture";
import { renderInLocale } from "../../support/render-ui";
import { eventFixture as event, plainSpaces as plain } from "../../support/event-fixture";
import { atFixedTime } from "../../support/fixed-clock";

const NOW = new Date("2026-12-10T00:00:00Z");
const taipei = (formatLocale: FormatLocale) => ({ formatLocale, timeZone: "Asia/Taipei" });

/** What each format tag writes; 繁體中文 is as it was before English formats followed the browser. */
const EXPECTED = {
  "en-US": {
    date: "Nov 24, 2026",
    dateTime: "Nov 24, 2026, 2:02 PM",
    time: "9:05 AM",
    evening: "Sat, Dec 5, 2026, 7:00 – 9:00 PM GMT+8",
    allDayRange: "Sat, Dec 5 – Sun, Dec 6, 2026",
    accessUntil: "Access until Mar 12, 2027 (in 3 months)",
    accessEnded: "Access ended on Nov 2, 2026",
    // RFC 5545 section 3.3.11: a comma in TEXT is escaped.
    reminder: "SUMMARY:Access to Watercolour 101 ends on Dec 13\\, 2026",
  },
  "en-GB": {
    date: "24 Nov 2026",
    dateTime: "24 Nov 2026, 14:02",
    time: "09:05",
    evening: "Sat, 5 Dec 2026, 19:00–21:00 GMT+8",
    allDayRange: "Sat, 5 Dec – Sun, 6 Dec 2026",
    accessUntil: "Access until 12 Mar 2027 (in 3 months)",
    accessEnded: "Access ended on 2 Nov 2026",
    reminder: "SUMMARY:Access to Watercolour 101 ends on 13 Dec 2026",
  },
  "zh-TW": {
    date: "2026年11月24日",
    dateTime: "2026年11月24日 下午2:02",
    time: "上午9:05",
    evening: "2026年12月5日週六 晚上7:00至9:00（GMT+8）",
    allDayRange: "2026/12/5週六至2026/12/6週日",
    accessUntil: "可觀看至 2027年3月12日（3 個月後）",
    accessEnded: "觀看權限已於 2026年11月2日到期",
    reminder: "SUMMARY:「Watercolour 101」觀看權限將於 2026年12月13日到期",
  },
} as const;

describe.each(["en-US", "en-GB", "zh-TW"] as const)("formatters in %s", (formatLocale) => {
  const expected = EXPECTED[formatLocale];

  it("writes dates, date-times and times of day in the tag's order and clock", () => {
    expect(plain(formatDate("2026-11-24T06:02:00Z", taipei(formatLocale)))).toBe(expected.date);
    expect(plain(formatDateTime("2026-11-24T06:02:00Z", taipei(formatLocale)))).toBe(expected.dateTime);
    expect(plain(formatTime("2026-11-24T01:05:00Z", taipei(formatLocale)))).toBe(expected.time);
    expect(plain(formatTime(Date.parse("2026-11-24T01:05:00Z"), taipei(formatLocale)))).toBe(expected.time);
  });

  it("writes event times and date ranges", () => {
    const evening = event({ startTime: "2026-12-05T11:00:00Z", endTime: "2026-12-05T13:00:00Z" });
    expect(plain(formatEventWhen(evening, taipei(formatLocale)).text)).toBe(expected.evening);
    const twoDays = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00", endTime: "2026-12-07T00:00:00+08:00" });
    expect(plain(formatEventWhen(twoDays, taipei(formatLocale)).text)).toBe(expected.allDayRange);
  });

  it("writes access badges and the reminder's text", () => {
    const options = { ...taipei(formatLocale), now: NOW };
    expect(plain(describeAccess({ kind: "until", expiresAt: "2027-03-12T10:00:00+08:00" }, options).text)).toBe(expected.accessUntil);
    expect(plain(describeAccess({ kind: "until", expiresAt: "2026-11-02T10:00:00+08:00" }, options).text)).toBe(expected.accessEnded);
    const ics = buildAccessReminderIcs({ ...WATERCOLOUR_COURSE, lastWatched: null }, options).replace(/\r\n[ \t]/g, "");
    expect(ics.split("\r\n")).toContain(expected.reminder);
  });
});

describe("English regions", () => {
  it("write plain spaces where Node's ICU writes thin or narrow no-break ones (Chromium writes plain ones: hydration)", () => {
    const evening = event({ startTime: "2026-12-05T11:00:00Z", endTime: "2026-12-05T13:30:00Z" });
    const twoDays = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00", endTime: "2026-12-07T00:00:00+08:00" });
    for (const formatLocale of ["en-US", "en-GB", "zh-TW"] as const) {
      const texts = [
        formatEventWhen(evening, taipei(formatLocale)).text,
        formatEventWhen(twoDays, taipei(formatLocale)).text,
        formatDateTime("2026-11-24T12:30:00Z", taipei(formatLocale)),
        formatTime("2026-11-24T12:30:00Z", taipei(formatLocale)),
        formatDate("2026-11-24T12:30:00Z", taipei(formatLocale)),
      ];
      for (const text of texts) expect(text).not.toMatch(/[\u2009\u202f]/);
    }
    // A time and its AM or PM joined by a no-break space: on a phone "9:30" never ends a line with "PM" starting the next.
    expect(formatEventWhen(evening, taipei("en-US")).text).toBe("Sat, Dec 5, 2026, 7:00 – 9:30\u00a0PM GMT+8");
    expect(formatTime("2026-11-24T12:30:00Z", taipei("en-US"))).toBe("8:30\u00a0PM");
    expect(formatDateTime("2026-11-24T12:30:00Z", taipei("en-US"))).toBe("Nov 24, 2026, 8:30\u00a0PM");
    expect(formatEventWhen(twoDays, taipei("en-GB")).text).toBe("Sat, 5 Dec – Sun, 6 Dec 2026");
  });

  it("write the US date with the month first and a 12-hour clock, the British with the day first and a 24-hour clock", () => {
    const evening = "2026-11-24T12:30:00Z"; // 20:30 in Taipei
    expect(plain(formatDateTime(evening, taipei("en-US")))).toBe("Nov 24, 2026, 8:30 PM");
    expect(plain(formatDateTime(evening, taipei("en-GB")))).toBe("24 Nov 2026, 20:30");
    // Just past midnight and in the morning: two digits on the British clock, as the offline banner's time has them.
    expect(plain(formatDateTime("2026-11-29T16:43:00Z", taipei("en-GB")))).toBe("30 Nov 2026, 00:43");
    const morning = event({ startTime: "2026-12-05T01:00:00Z", endTime: "2026-12-05T04:00:00Z" });
    expect(plain(formatEventWhen(morning, taipei("en-GB")).text)).toBe("Sat, 5 Dec 2026, 09:00–12:00 GMT+8");
  });

  it("name time zones in words and never by their IANA id in either region", () => {
    for (const english of ["en-US", "en-GB"] as const) {
      expect(describeTimeZone("America/Los_Angeles", english, NOW)).toBe("Pacific Time");
      expect(describeTimeZone("Asia/Taipei", english, NOW)).toBe("Taiwan Standard Time");
      expect(describeTimeZone("UTC", english, NOW)).toBe("Coordinated Universal Time");
    }
    expect(describeTimeZone("Asia/Taipei", "zh-TW", NOW)).toBe("台北標準時間");
  });

  it("say relative times alike", () => {
    for (const english of ["en-US", "en-GB"] as const)
      expect(formatRelativeTime("2026-12-13T00:00:00Z", NOW, english)).toBe("in 3\u00a0days");
  });

  it("keep the country of every dollar in a list of mixed currencies", () => {
    for (const english of ["en-US", "en-GB"] as const) {
      expect([formatCurrencyPieces(129, "USD", english).join(""), formatCurrencyPieces(3200, "TWD", english).join("")]).toEqual([
        "US$129.00",
        "NT$3,200",
      ]);
    }
  });

  it("get formatters of their own from the shared cache", () => {
    const options: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" };
    const us = dateTimeFormat("en-US", options);
    const gb = dateTimeFormat("en-GB", options);
    expect(us).not.toBe(gb);
    expect(dateTimeFormat("en-US", { ...options })).toBe(us);
    expect([us.format(NOW), gb.format(NOW)]).toEqual(["Dec 10, 2026", "10 Dec 2026"]);
  });
});

describe("components follow the format tag the server chose", () => {
  atFixedTime(NOW);

  const order: Order = {
    id: "o1",
    tradeNo: "T2026-0001",
    state: "paid",
    currency: "USD",
    amount: 129,
    refundedAmount: null,
    paidAt: "2026-11-24T12:00:00Z",
    createdAt: "2026-11-24T06:00:00Z",
    paymentUrl: null,
    lineItems: [{ name: "Watercolour 101", amount: 129, itemType: "CurriculumPlan" }],
  };
  const render = (node: Parameters<typeof renderInLocale>[0], englishFormat: EnglishFormat) =>
    plain(renderInLocale(node, "en", { timeZone: "Asia/Taipei", now: NOW.getTime(), englishFormat }).container.textContent ?? "");

  it.each([
    ["en-US", "Paid Nov 24, 2026", "Access ended on Nov 2, 2026", /^Sat, Dec 5, 2026, \d{1,2}:00( [AP]M)? – \d{1,2}:00 [AP]M /],
    ["en-GB", "Paid 24 Nov 2026", "Access ended on 2 Nov 2026", /^Sat, 5 Dec 2026, \d\d:00–\d\d:00 /],
  ] as const)("in %s", (englishFormat, paid, ended, clock) => {
    expect(render(createElement(OrderCard, { order }), englishFormat)).toContain(paid);
    cleanup();
    expect(render(createElement(OrderCard, { order }), englishFormat)).toMatch(/Total\s*US\$129\.00/);
    cleanup();
    expect(render(createElement(AccessBadge, { access: { kind: "until", expiresAt: "2026-11-02T12:00:00Z" } }), englishFormat)).toContain(
      ended,
    );
    cleanup();
    const registration = {
      id: "r1",
      state: "enrolled",
      registeredAt: "2026-10-01T00:00:00Z",
      event: event({ endTime: "2026-12-05T13:00:00Z" }),
    };
    // Once mounted, the views use the browser's zone (this process's).
    const when = plain(
      formatEventWhen(registration.event, { formatLocale: englishFormat, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }).text,
    );
    expect(when).toMatch(clock);
    expect(render(createElement(EventItem, { registration }), englishFormat)).toContain(when);
  });
});
