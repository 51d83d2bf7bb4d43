import { describe, expect, it } from "vitest";
import { calendarDaysBetween, formatDate, formatDateTime, zonedCalendarDate } from "@/lib/format/datetime";
import {
  allDaySpan,
  eventEndInstant,
  formatEventWhen,
  isUpcomingEvent,
  pickUpcomingRegistrations,
  splitRegistrations,
} from "@/lib/format/events";
import type { DashboardEvent, EventRegistration } from "@/lib/types/account";
import { eventFixture as event, plainSpaces as plain } from "../../support/event-fixture";

describe("zoned dates", () => {
  it("puts an instant on the calendar day of the member's zone", () => {
    expect(zonedCalendarDate("2026-11-01T02:00:00Z", "America/New_York")).toEqual({ year: 2026, month: 10, day: 31 });
    expect(zonedCalendarDate("2026-11-01T02:00:00Z", "Asia/Taipei")).toEqual({ year: 2026, month: 11, day: 1 });
    expect(formatDate("2026-11-01T02:00:00Z", { formatLocale: "en-GB", timeZone: "America/New_York" })).toBe("31 Oct 2026");
  });

  it("counts calendar days across the 25-hour New York day of 1 Nov 2026", () => {
    // 00:30 EDT on 1 Nov; 24 hours later it is 23:30 EST, still 1 Nov.
    expect(calendarDaysBetween("2026-11-01T04:30:00Z", "2026-11-02T04:30:00Z", "America/New_York")).toBe(0);
    // Midnight EST starts 2 Nov.
    expect(calendarDaysBetween("2026-11-01T04:30:00Z", "2026-11-02T05:00:00Z", "America/New_York")).toBe(1);
  });

  it("formats the same wall-clock hour twice on the night New York falls back", () => {
    const ny = { formatLocale: "en-GB", timeZone: "America/New_York" } as const;
    expect(formatDateTime("2026-11-01T05:30:00Z", ny)).toBe("1 Nov 2026, 01:30");
    expect(formatDateTime("2026-11-01T06:30:00Z", ny)).toBe("1 Nov 2026, 01:30");
  });

  it("follows London's spring-forward gap", () => {
    const london = { formatLocale: "en-GB", timeZone: "Europe/London" } as const;
    expect(formatDateTime("2026-03-29T00:59:00Z", london)).toBe("29 Mar 2026, 00:59");
    expect(formatDateTime("2026-03-29T01:00:00Z", london)).toBe("29 Mar 2026, 02:00");
  });
});

describe("formatEventWhen", () => {
  it("shows only the start of a timed event whose end is not after it", () => {
    const options = { formatLocale: "en-GB", timeZone: "Asia/Taipei" } as const;
    const startOnly = formatEventWhen(event({ startTime: "2026-12-05T11:00:00Z" }), options);
    expect(plain(startOnly.text)).toBe("Sat, 5 Dec 2026, 19:00 GMT+8");
    for (const endTime of ["2026-12-05T11:00:00Z", "2026-12-05T10:00:00Z"]) {
      expect(formatEventWhen(event({ startTime: "2026-12-05T11:00:00Z", endTime }), options), endTime).toEqual(startOnly);
    }
  });

  it("shows a timed event in the member's zone with the zone's name", () => {
    const when = formatEventWhen(event({ startTime: "2026-12-05T11:00:00Z", endTime: "2026-12-05T13:00:00Z" }), {
      formatLocale: "en-GB",
      timeZone: "Asia/Taipei",
    });
    expect({ ...when, text: plain(when.text) }).toEqual({
      text: "Sat, 5 Dec 2026, 19:00–21:00 GMT+8",
      dateTime: "2026-12-05T11:00:00.000Z",
    });
  });

  it("gives each end its own offset when New York falls back during the event", () => {
    const when = formatEventWhen(event({ startTime: "2026-11-01T04:00:00Z", endTime: "2026-11-01T08:00:00Z" }), {
      formatLocale: "en-GB",
      timeZone: "America/New_York",
    });
    expect(plain(when.text)).toBe("Sun, 1 Nov 2026, 00:00 GMT−4 – 03:00 GMT−5");
  });

  it("gives each end its own offset when London springs forward during the event", () => {
    const when = formatEventWhen(event({ startTime: "2026-03-29T00:30:00Z", endTime: "2026-03-29T02:30:00Z" }), {
      formatLocale: "en-GB",
      timeZone: "Europe/London",
    });
    expect(plain(when.text)).toBe("Sun, 29 Mar 2026, 00:30 GMT – 03:30 BST");
  });

  it("shows an all-day event as its date in every time zone", () => {
    const allDay = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00" });
    for (const timeZone of ["Asia/Taipei", "America/Los_Angeles", "Pacific/Kiritimati", "UTC"]) {
      expect(formatEventWhen(allDay, { formatLocale: "en-GB", timeZone })).toEqual({ text: "Sat, 5 Dec 2026", dateTime: "2026-12-05" });
    }
    expect(formatEventWhen(allDay, { formatLocale: "zh-TW", timeZone: "America/Los_Angeles" }).text).toBe("2026年12月5日週六");
  });

  it("shows a multi-day all-day event as a date range, reading a midnight end as exclusive", () => {
    const twoDays = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00", endTime: "2026-12-07T00:00:00+08:00" });
    expect(allDaySpan(twoDays)).toEqual({ start: { year: 2026, month: 12, day: 5 }, endExclusive: { year: 2026, month: 12, day: 7 } });
    expect(plain(formatEventWhen(twoDays, { formatLocale: "en-GB", timeZone: "America/New_York" }).text)).toBe(
      "Sat, 5 Dec – Sun, 6 Dec 2026",
    );
    const inclusiveEnd = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00", endTime: "2026-12-06T23:59:59+08:00" });
    expect(allDaySpan(inclusiveEnd).endExclusive).toEqual({ year: 2026, month: 12, day: 7 });
  });

  it("reads a midnight end written with milliseconds as exclusive too", () => {
    const twoDays = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00", endTime: "2026-12-07T00:00:00.000+08:00" });
    expect(allDaySpan(twoDays).endExclusive).toEqual({ year: 2026, month: 12, day: 7 });
    expect(plain(formatEventWhen(twoDays, { formatLocale: "en-GB", timeZone: "UTC" }).text)).toBe("Sat, 5 Dec – Sun, 6 Dec 2026");
  });

  it("keeps an all-day event one day long when its end is its own start or lies before it", () => {
    const fifth = { year: 2026, month: 12, day: 5 };
    const sixth = { year: 2026, month: 12, day: 6 };
    const endsAtItsStart = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00", endTime: "2026-12-05T00:00:00+08:00" });
    expect(allDaySpan(endsAtItsStart)).toEqual({ start: fifth, endExclusive: sixth });
    const endsBefore = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00", endTime: "2026-12-03T12:00:00+08:00" });
    expect(allDaySpan(endsBefore)).toEqual({ start: fifth, endExclusive: sixth });
    for (const oneDay of [endsAtItsStart, endsBefore]) {
      expect(formatEventWhen(oneDay, { formatLocale: "en-GB", timeZone: "UTC" }).text).toBe("Sat, 5 Dec 2026");
    }
  });

  it("reads the date of a timestamp the site did not write in ISO 8601 from the instant it names", () => {
    const allDay = event({ isAllDay: true, startTime: "Sat, 05 Dec 2026 10:00:00 GMT" });
    expect(allDaySpan(allDay)).toEqual({ start: { year: 2026, month: 12, day: 5 }, endExclusive: { year: 2026, month: 12, day: 6 } });
    expect(formatEventWhen(allDay, { formatLocale: "en-GB", timeZone: "Asia/Taipei" }).text).toBe("Sat, 5 Dec 2026");
  });
});

describe("one date pattern per events list", () => {
  const allDay = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00" });
  const evening = event({ startTime: "2026-12-05T11:00:00Z", endTime: "2026-12-05T13:00:00Z" });
  const overnight = event({ startTime: "2026-12-05T11:00:00Z", endTime: "2026-12-06T02:00:00Z" });

  it.each(["en-GB", "en-US", "zh-TW"] as const)("writes the dates of all-day and timed events alike in %s", (formatLocale) => {
    const options = { formatLocale, timeZone: "Asia/Taipei" };
    const date = formatEventWhen(allDay, options).text;
    expect(plain(formatEventWhen(evening, options).text).startsWith(plain(date))).toBe(true);
    const [startPart = "", endPart = ""] = plain(formatEventWhen(overnight, options).text).split(" – ");
    expect(startPart.startsWith(plain(date))).toBe(true);
    expect(
      endPart.startsWith(plain(formatEventWhen(event({ isAllDay: true, startTime: "2026-12-06T00:00:00+08:00" }), options).text)),
    ).toBe(true);
  });

  it("reads a timed event in 繁體中文 with the all-day pattern, never the slashed one", () => {
    const text = plain(formatEventWhen(evening, { formatLocale: "zh-TW", timeZone: "Asia/Taipei" }).text);
    expect(text).toBe("2026年12月5日週六 晚上7:00至9:00（GMT+8）");
    expect(text).not.toMatch(/\d\/\d/);
  });
});

describe("the zone's name in 繁體中文", () => {
  const zh = (timeZone: string) => ({ formatLocale: "zh-TW", timeZone }) as const;

  it("writes the zone in full-width parentheses after the time, never in Intl's square brackets", () => {
    const evening = event({ startTime: "2026-12-05T11:00:00Z", endTime: "2026-12-05T13:00:00Z" });
    const noEnd = event({ startTime: "2026-12-05T11:00:00Z" });
    const overnight = event({ startTime: "2026-12-05T11:00:00Z", endTime: "2026-12-06T02:00:00Z" });
    expect(plain(formatEventWhen(evening, zh("Asia/Taipei")).text)).toBe("2026年12月5日週六 晚上7:00至9:00（GMT+8）");
    expect(plain(formatEventWhen(noEnd, zh("Asia/Taipei")).text)).toBe("2026年12月5日週六 下午7:00（GMT+8）");
    expect(plain(formatEventWhen(overnight, zh("Asia/Taipei")).text)).toBe(
      "2026年12月5日週六 下午7:00（GMT+8） – 2026年12月6日週日 上午10:00（GMT+8）",
    );
    for (const timeZone of ["Asia/Taipei", "America/New_York", "Europe/London", "Asia/Kolkata", "UTC"]) {
      for (const when of [evening, noEnd, overnight]) expect(formatEventWhen(when, zh(timeZone)).text).not.toMatch(/[[\]]/);
    }
  });

  it("gives each end its own offset, each in its parentheses, when New York falls back during the event", () => {
    const when = formatEventWhen(event({ startTime: "2026-11-01T04:00:00Z", endTime: "2026-11-01T08:00:00Z" }), zh("America/New_York"));
    expect(plain(when.text)).toBe("2026年11月1日週日 上午12:00（GMT−4） – 上午3:00（GMT−5）");
  });

  it("names every zone by its offset, never by an English abbreviation (EST, PST, BST)", () => {
    const evening = event({ startTime: "2026-07-05T23:00:00Z", endTime: "2026-07-06T01:00:00Z" });
    for (const timeZone of ["America/New_York", "America/Los_Angeles", "Europe/London", "Asia/Taipei", "UTC"]) {
      const zones = [...formatEventWhen(evening, zh(timeZone)).text.matchAll(/（([^）]*)）/g)].map((match) => match[1]);
      expect(zones.length).toBeGreaterThan(0);
      for (const zone of zones) expect(zone).toMatch(/^(GMT|UTC)([+−]\d{1,2}(:\d\d)?)?$/);
    }
    expect(plain(formatEventWhen(evening, zh("America/Los_Angeles")).text)).toBe("2026年7月5日週日 下午4:00至6:00（GMT−7）");
  });

  it("leaves English as Intl writes it", () => {
    const when = formatEventWhen(event({ startTime: "2026-11-01T04:00:00Z", endTime: "2026-11-01T08:00:00Z" }), {
      formatLocale: "en-US",
      timeZone: "America/New_York",
    });
    expect(plain(when.text)).toBe("Sun, Nov 1, 2026, 12:00 AM EDT – 3:00 AM EST");
  });
});

describe("upcoming and past", () => {
  const registration = (id: string, state: string, overrides: Partial<DashboardEvent>): EventRegistration => ({
    id,
    state,
    registeredAt: "2026-10-01T00:00:00Z",
    event: event({ id, ...overrides }),
  });
  const now = new Date("2026-12-05T12:00:00Z");

  it("keeps an event upcoming while it runs and an all-day event until its day is over", () => {
    expect(isUpcomingEvent(event({ startTime: "2026-12-05T11:00:00Z", endTime: "2026-12-05T13:00:00Z" }), now, "UTC")).toBe(true);
    expect(isUpcomingEvent(event({ startTime: "2026-12-05T10:00:00Z", endTime: "2026-12-05T11:00:00Z" }), now, "UTC")).toBe(false);
    expect(isUpcomingEvent(event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00" }), now, "UTC")).toBe(true);
    expect(isUpcomingEvent(event({ isAllDay: true, startTime: "2026-12-04T00:00:00+08:00" }), now, "UTC")).toBe(false);
  });

  it("counts an event as over at the very instant it ends", () => {
    expect(isUpcomingEvent(event({ startTime: "2026-12-05T11:00:00Z", endTime: "2026-12-05T12:00:00Z" }), now, "UTC")).toBe(false);
    const fifth = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00" });
    expect(isUpcomingEvent(fifth, new Date("2026-12-06T00:00:00Z"), "UTC")).toBe(false);
  });

  it("ends an all-day event at the end of its last day where the member is, as the calendar file's dates do", () => {
    // 5 December as the site writes it (+08:00); the member's own 5 December ends at their midnight.
    const fifth = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00" });
    const threeDays = event({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00", endTime: "2026-12-08T00:00:00+08:00" });
    expect(eventEndInstant(fifth, "America/New_York").toISOString()).toBe("2026-12-06T05:00:00.000Z");
    expect(eventEndInstant(fifth, "Asia/Taipei").toISOString()).toBe("2026-12-05T16:00:00.000Z");
    expect(eventEndInstant(threeDays, "Europe/London").toISOString()).toBe("2026-12-08T00:00:00.000Z");
    // Noon on 5 December in New York is 01:00 on the 6th in Taipei: still that day for the member in New York.
    const noonInNewYork = new Date("2026-12-05T17:00:00Z");
    expect(isUpcomingEvent(fifth, noonInNewYork, "America/New_York")).toBe(true);
    expect(isUpcomingEvent(fifth, noonInNewYork, "Asia/Taipei")).toBe(false);
    // 00:30 on the 6th in Tokyo is 23:30 on the 5th in Taipei: over for the member in Tokyo.
    expect(isUpcomingEvent(fifth, new Date("2026-12-05T15:30:00Z"), "Asia/Tokyo")).toBe(false);
    expect(isUpcomingEvent(fifth, new Date("2026-12-05T15:30:00Z"), "Asia/Taipei")).toBe(true);
  });

  it("ends an all-day event where the next day has no midnight (Santiago springs forward at 00:00) at that day's first instant", () => {
    const saturday = event({ isAllDay: true, startTime: "2026-09-05T00:00:00-04:00" });
    // 6 September 2026 begins at 01:00 -03:00: 23:30 on the 5th (-04:00) is still the event's day.
    expect(eventEndInstant(saturday, "America/Santiago").toISOString()).toBe("2026-09-06T04:00:00.000Z");
    expect(isUpcomingEvent(saturday, new Date("2026-09-06T03:30:00Z"), "America/Santiago")).toBe(true);
  });

  it("lists an all-day event as upcoming or as past by the member's own day, never in both lists or in neither", () => {
    const fifth = registration("fifth", "enrolled", { isAllDay: true, startTime: "2026-12-05T00:00:00+08:00" });
    // 21:00 on 5 December in New York, already the 6th in UTC: still the member's day.
    expect(splitRegistrations([fifth], new Date("2026-12-06T02:00:00Z"), "America/New_York")).toEqual({ upcoming: [fifth], past: [] });
    // 01:00 on the 6th in Taipei, still the 5th in UTC: over for the member.
    expect(splitRegistrations([fifth], new Date("2026-12-05T17:00:00Z"), "Asia/Taipei")).toEqual({ upcoming: [], past: [fifth] });
  });

  it("sorts upcoming soonest first and past latest first, and picks three non-cancelled for the overview", () => {
    const registrations = [
      registration("late", "enrolled", { startTime: "2026-12-20T10:00:00Z" }),
      registration("old", "checked_in", { startTime: "2026-11-01T10:00:00Z" }),
      registration("soon", "enrolled", { startTime: "2026-12-06T10:00:00Z" }),
      registration("cancelled", "cancelled", { startTime: "2026-12-05T18:00:00Z" }),
      registration("older", "no_show", { startTime: "2026-10-01T10:00:00Z" }),
      registration("later", "enrolled", { startTime: "2026-12-24T10:00:00Z" }),
      registration("latest", "enrolled", { startTime: "2026-12-31T10:00:00Z" }),
    ];
    const { upcoming, past } = splitRegistrations(registrations, now, "UTC");
    expect(upcoming.map((r) => r.id)).toEqual(["cancelled", "soon", "late", "later", "latest"]);
    expect(past.map((r) => r.id)).toEqual(["old", "older"]);
    expect(pickUpcomingRegistrations(registrations, now, "UTC", 3).map((r) => r.id)).toEqual(["soon", "late", "later"]);
  });
});
