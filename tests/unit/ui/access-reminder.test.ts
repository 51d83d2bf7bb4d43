import { describe, expect, it } from "vitest";

import { canRemindBeforeAccessEnds } from "@/lib/format/access";
import { accessReminderTiming } from "@/lib/format/access-reminder";
import { zonedInstant } from "@/lib/format/datetime";

/** When "Add a reminder" reminds (lib/format/access-reminder.ts), always in the member's time zone. */
describe("accessReminderTiming", () => {
  const taipei = (now: string) => ({ timeZone: "Asia/Taipei", now: new Date(now) });
  const at = (iso: string) => ({ kind: "at", instant: new Date(iso) });

  it("reminds all day on the day before access ends while that day is still ahead", () => {
    expect(accessReminderTiming("2026-12-13T12:00:00+08:00", taipei("2026-12-10T08:00:00+08:00"))).toEqual({
      kind: "day-before",
      date: { year: 2026, month: 12, day: 12 },
    });
  });

  it("reminds this evening at 19:00 when access ends tomorrow", () => {
    expect(accessReminderTiming("2026-12-11T12:00:00+08:00", taipei("2026-12-10T08:00:00+08:00"))).toEqual(at("2026-12-10T19:00:00+08:00"));
    // Just in time: 15 minutes ahead.
    expect(accessReminderTiming("2026-12-11T12:00:00+08:00", taipei("2026-12-10T18:45:00+08:00"))).toEqual(at("2026-12-10T19:00:00+08:00"));
  });

  it("reminds tomorrow at 09:00 once this evening is past or too near, if that still leaves an hour", () => {
    expect(accessReminderTiming("2026-12-11T12:00:00+08:00", taipei("2026-12-10T18:50:00+08:00"))).toEqual(at("2026-12-11T09:00:00+08:00"));
    expect(accessReminderTiming("2026-12-11T10:00:00+08:00", taipei("2026-12-10T21:00:00+08:00"))).toEqual(at("2026-12-11T09:00:00+08:00"));
  });

  it("offers none when no reminder can come in time: too late tonight for an end early tomorrow, today, or ended", () => {
    expect(accessReminderTiming("2026-12-11T09:30:00+08:00", taipei("2026-12-10T21:00:00+08:00"))).toBeNull();
    expect(accessReminderTiming("2026-12-11T00:30:00+08:00", taipei("2026-12-10T20:00:00+08:00"))).toBeNull();
    expect(accessReminderTiming("2026-12-10T20:00:00+08:00", taipei("2026-12-10T08:00:00+08:00"))).toBeNull();
    expect(accessReminderTiming("2026-12-09T20:00:00+08:00", taipei("2026-12-10T08:00:00+08:00"))).toBeNull();
  });

  it("counts today, tomorrow and the hour in the member's zone", () => {
    // The same instants: 08:00 on 10 Dec in Taipei is 19:00 on 9 Dec in New York, where 19:00 is now.
    const now = new Date("2026-12-10T00:00:00Z");
    const end = "2026-12-11T04:00:00Z";
    expect(accessReminderTiming(end, { timeZone: "Asia/Taipei", now })).toEqual(at("2026-12-10T11:00:00Z"));
    expect(accessReminderTiming(end, { timeZone: "America/New_York", now })).toEqual(at("2026-12-10T09:00:00-05:00"));
  });

  it("keeps the wall-clock hour across the night New York falls back", () => {
    const ny = (now: string) => ({ timeZone: "America/New_York", now: new Date(now) });
    // Access ends at noon EST on 1 Nov 2026; the evening before is still EDT.
    expect(accessReminderTiming("2026-11-01T12:00:00-05:00", ny("2026-10-31T10:00:00-04:00"))).toEqual(at("2026-10-31T19:00:00-04:00"));
    expect(accessReminderTiming("2026-11-01T12:00:00-05:00", ny("2026-10-31T19:30:00-04:00"))).toEqual(at("2026-11-01T09:00:00-05:00"));
    expect(zonedInstant({ year: 2026, month: 3, day: 8 }, 9, 0, "America/New_York")).toEqual(new Date("2026-03-08T09:00:00-04:00"));
  });

  it("keeps this evening's 19:00 on the evening before Auckland springs forward", () => {
    // New Zealand moves from +12 to +13 at 02:00 on Sunday 27 Sep 2026; Saturday evening is still +12.
    const auckland = { timeZone: "Pacific/Auckland", now: new Date("2026-09-26T10:00:00+12:00") };
    expect(accessReminderTiming("2026-09-27T12:00:00+13:00", auckland)).toEqual(at("2026-09-26T19:00:00+12:00"));
    expect(zonedInstant({ year: 2026, month: 9, day: 26 }, 19, 0, "Pacific/Auckland")).toEqual(new Date("2026-09-26T07:00:00Z"));
  });

  it("reads a wall-clock time around a change of offset as RFC 5545 does: a repeated one the earlier, a skipped one later", () => {
    const at = (date: string, hour: number, minute: number, timeZone: string) => {
      const [year = 0, month = 0, day = 0] = date.split("-").map(Number);
      return zonedInstant({ year, month, day }, hour, minute, timeZone).toISOString();
    };
    // New York skips 02:00–03:00 on 8 March 2026: 02:30 is read with the offset before the gap, -05:00.
    expect(at("2026-03-08", 2, 30, "America/New_York")).toBe("2026-03-08T07:30:00.000Z");
    expect(at("2026-03-08", 1, 59, "America/New_York")).toBe("2026-03-08T06:59:00.000Z");
    expect(at("2026-03-08", 3, 0, "America/New_York")).toBe("2026-03-08T07:00:00.000Z");
    // It shows 01:00–02:00 twice on 1 November 2026: the first time, still -04:00.
    expect(at("2026-11-01", 1, 30, "America/New_York")).toBe("2026-11-01T05:30:00.000Z");
    expect(at("2026-11-01", 2, 0, "America/New_York")).toBe("2026-11-01T07:00:00.000Z");
    // Santiago skips its midnight on 6 September 2026: the day begins at 01:00 (-03:00), not at 23:00 the day before.
    expect(at("2026-09-06", 0, 0, "America/Santiago")).toBe("2026-09-06T04:00:00.000Z");
    expect(at("2026-09-05", 23, 30, "America/Santiago")).toBe("2026-09-06T03:30:00.000Z");
    // Lord Howe moves by half an hour (02:00 to 02:30 on 4 October 2026).
    expect(at("2026-10-04", 2, 15, "Australia/Lord_Howe")).toBe("2026-10-03T15:45:00.000Z");
    expect(at("2026-06-01", 9, 0, "Asia/Kolkata")).toBe("2026-06-01T03:30:00.000Z");
  });

  it("is what decides whether Add a reminder is offered", () => {
    const now = new Date("2026-12-10T00:00:00Z");
    const until = (expiresAt: string) => ({ kind: "until", expiresAt }) as const;
    expect(canRemindBeforeAccessEnds(until("2026-12-11T12:00:00+08:00"), now, "Asia/Taipei")).toBe(true);
    expect(canRemindBeforeAccessEnds(until("2026-12-10T20:00:00+08:00"), now, "Asia/Taipei")).toBe(false);
    expect(canRemindBeforeAccessEnds(until("2027-02-01T00:00:00Z"), now, "Asia/Taipei")).toBe(false);
    expect(canRemindBeforeAccessEnds({ kind: "lifetime" }, now, "Asia/Taipei")).toBe(false);
  });
});
