import { describe, expect, it } from "vitest";
import { accessReminderFileName, buildAccessReminderIcs, buildIcs, icsFileName } from "@/lib/format/ics";
import type { CourseEnrollment, EventRegistration } from "@/lib/types/account";
import { WATERCOLOUR_COURSE } from "../../support/course-fixture";

function registration(overrides: Partial<EventRegistration["event"]> = {}, state = "enrolled"): EventRegistration {
  return {
    id: "reg-1",
    state,
    registeredAt: "2026-10-01T00:00:00Z",
    event: {
      id: "ev-42",
      title: "Open Studio: Watercolour, Q&A",
      startTime: "2026-12-05T11:00:00Z",
      endTime: "2026-12-05T13:00:00Z",
      isAllDay: false,
      location: "Room 3; Taipei",
      url: "https://school.example.com/events/ev-42",
      ...overrides,
    },
  };
}

/** Unfolds RFC 5545 folded lines and splits into content lines. */
function contentLines(ics: string): string[] {
  return ics
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .filter(Boolean);
}

describe("buildIcs", () => {
  const now = new Date("2026-11-20T08:00:00Z");

  it("produces one VEVENT inside a VCALENDAR with CRLF line endings", () => {
    const ics = buildIcs(registration(), { now });
    const lines = contentLines(ics);
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines.at(-1)).toBe("END:VCALENDAR");
    expect(lines).toContain("VERSION:2.0");
    expect(lines.filter((line) => line === "BEGIN:VEVENT")).toHaveLength(1);
    expect(lines).toContain("END:VEVENT");
    expect(ics).not.toMatch(/[^\r]\n/);
  });

  it("writes timed events as UTC date-times with a stable UID and the given DTSTAMP", () => {
    const lines = contentLines(buildIcs(registration(), { now }));
    expect(lines).toContain("DTSTART:20261205T110000Z");
    expect(lines).toContain("DTEND:20261205T130000Z");
    expect(lines).toContain("DTSTAMP:20261120T080000Z");
    expect(lines).toContain("UID:event-ev-42@companion-dashboard");
    expect(lines).toContain("URL:https://school.example.com/events/ev-42");
  });

  it("escapes commas and semicolons in text values", () => {
    const lines = contentLines(buildIcs(registration(), { now }));
    expect(lines).toContain("SUMMARY:Open Studio: Watercolour\\, Q&A");
    expect(lines).toContain("LOCATION:Room 3\\; Taipei");
  });

  it("writes all-day events as DATE values with an exclusive end, whatever the offset", () => {
    const lines = contentLines(buildIcs(registration({ isAllDay: true, startTime: "2026-12-05T00:00:00+08:00", endTime: null }), { now }));
    expect(lines).toContain("DTSTART;VALUE=DATE:20261205");
    expect(lines).toContain("DTEND;VALUE=DATE:20261206");
  });

  it("gives an event without an end one hour", () => {
    const lines = contentLines(buildIcs(registration({ endTime: null }), { now }));
    expect(lines).toContain("DTSTART:20261205T110000Z");
    expect(lines).toContain("DURATION:PT1H");
  });

  it("gives an event whose end the site put before its start one hour too, never an end before the start", () => {
    const lines = contentLines(buildIcs(registration({ endTime: "2026-12-05T10:00:00Z" }), { now }));
    expect(lines).toContain("DURATION:PT1H");
    expect(lines.filter((line) => line.startsWith("DTEND"))).toEqual([]);
  });

  it("throws for an event the package cannot write, rather than giving a broken file", () => {
    expect(() => buildIcs(registration({ startTime: "not a time" }), { now })).toThrow(/Could not build the calendar file|Invalid/);
  });

  it("lets no line break of the site's text start a property of its own, a lone CR included, and no control character through", () => {
    const injected = "\rATTENDEE:mailto:x@evil.example\r\nDTSTART:19700101T000000Z\nX-A:1\u0000\u007f";
    const ics = buildIcs(registration({ id: `ev-1${injected}`, title: `Hi${injected}`, location: `Room${injected}` }), { now });
    expect(ics).not.toMatch(/\r(?!\n)|\n(?<!\r\n)|\u0000|\u007f/);
    const lines = contentLines(ics);
    expect(lines.filter((line) => /^(ATTENDEE|X-A)|^DTSTART:1970/.test(line))).toEqual([]);
    expect(lines).toContain("SUMMARY:Hi\\nATTENDEE:mailto:x@evil.example\\nDTSTART:19700101T000000Z\\nX-A:1");
  });

  it("keeps a tab of the site's text, which RFC 5545 TEXT allows", () => {
    expect(contentLines(buildIcs(registration({ title: "Q&A\twith tea" }), { now }))).toContain("SUMMARY:Q&A\twith tea");
  });

  it("marks a cancelled registration's event as cancelled", () => {
    expect(contentLines(buildIcs(registration({}, "cancelled"), { now }))).toContain("STATUS:CANCELLED");
  });
});

describe("icsFileName", () => {
  it("slugs the title", () => {
    expect(icsFileName(registration())).toBe("open-studio-watercolour-q-a.ics");
    expect(icsFileName(registration({ title: "Café Crème Night" }))).toBe("cafe-creme-night.ics");
  });

  it("falls back to the event id when the title has no Latin letters", () => {
    expect(icsFileName(registration({ title: "水彩工作坊" }))).toBe("event-ev-42.ics");
  });

  it("is a plain name whatever the site's title or id: no path, at most 60 characters before .ics", () => {
    expect(icsFileName(registration({ title: "../A b" }))).toBe("a-b.ics");
    expect(icsFileName(registration({ title: "日本", id: "A/../B" }))).toBe("event-a-b.ics");
    const long = icsFileName(registration({ title: `${"word ".repeat(30)}end` }));
    expect(long).toMatch(/^[a-z0-9-]{1,60}\.ics$/);
    expect(long).not.toMatch(/-\.ics$/);
    expect(accessReminderFileName({ ...WATERCOLOUR_COURSE, slug: "../x" })).toBe("access-ends-x.ics");
    expect(accessReminderFileName({ ...WATERCOLOUR_COURSE, slug: "水彩入門" })).toBe("access-ends-course.ics");
  });
});

describe("buildAccessReminderIcs", () => {
  const course: CourseEnrollment = { ...WATERCOLOUR_COURSE, lastWatched: null };
  const taipei = { formatLocale: "en-GB", timeZone: "Asia/Taipei", now: new Date("2026-12-10T00:00:00Z") } as const;

  it("is an all-day event the day before access ends, with the course link, a morning alarm and a stable UID", () => {
    const ics = buildAccessReminderIcs(course, taipei);
    const lines = contentLines(ics);
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines.at(-1)).toBe("END:VCALENDAR");
    expect(lines).toContain("DTSTART;VALUE=DATE:20261212");
    expect(lines).toContain("DTEND;VALUE=DATE:20261213");
    expect(lines).toContain("SUMMARY:Access to Watercolour 101 ends on 13 Dec 2026");
    expect(lines).toContain("URL:https://school.example.com/courses/watercolour-101");
    expect(lines).toContain("BEGIN:VALARM");
    expect(lines).toContain("TRIGGER:PT9H");
    expect(lines).toContain("DTSTAMP:20261210T000000Z");
    expect(lines.find((line) => line.startsWith("UID:"))).toBe(
      contentLines(buildAccessReminderIcs(course, { ...taipei, now: new Date("2026-12-11T00:00:00Z") })).find((line) =>
        line.startsWith("UID:"),
      ),
    );
    expect(accessReminderFileName(course)).toBe("access-ends-watercolour-101.ics");
    // A reminder takes no time in the calendar, and says what it is about.
    expect(lines).toContain("X-MICROSOFT-CDO-BUSYSTATUS:FREE");
    expect(lines.find((line) => line.startsWith("DESCRIPTION:"))).toContain("Watercolour 101");
  });

  it("gives a reminder for another expiry another UID, made of the course's slug as a plain name", () => {
    const uidOf = (changes: Partial<CourseEnrollment>) =>
      contentLines(buildAccessReminderIcs({ ...course, ...changes }, taipei)).find((line) => line.startsWith("UID:"));
    expect(uidOf({ access: { kind: "until", expiresAt: "2026-12-20T00:00:00Z" } })).not.toBe(uidOf({}));
    expect(uidOf({ slug: "../x y" })).toMatch(/^UID:access-x-y-\d+@companion-dashboard$/);
  });

  it("counts the day before in the member's time zone", () => {
    // 13 Dec 01:00 in Taipei is still 12 Dec in New York.
    const early = { ...course, access: { kind: "until", expiresAt: "2026-12-13T01:00:00+08:00" } } as const;
    expect(contentLines(buildAccessReminderIcs(early, taipei))).toContain("DTSTART;VALUE=DATE:20261212");
    expect(contentLines(buildAccessReminderIcs(early, { ...taipei, timeZone: "America/New_York" }))).toContain(
      "DTSTART;VALUE=DATE:20261211",
    );
  });

  it("for access ending tomorrow, is a short event this evening at 19:00 in the member's zone, its alarm as it starts", () => {
    // 08:00 in Taipei on 10 Dec; access ends at noon on 11 Dec.
    const tomorrow = { ...course, access: { kind: "until", expiresAt: "2026-12-11T12:00:00+08:00" } } as const;
    const lines = contentLines(buildAccessReminderIcs(tomorrow, taipei));
    expect(lines).toContain("DTSTART:20261210T110000Z");
    expect(lines).toContain("DTEND:20261210T111500Z");
    expect(lines.filter((line) => line.startsWith("TRIGGER"))).toEqual(["TRIGGER;VALUE=DATE-TIME:20261210T110000Z"]);
    expect(lines).toContain("SUMMARY:Access to Watercolour 101 ends on 11 Dec 2026");
    expect(lines).toContain("URL:https://school.example.com/courses/watercolour-101");
  });

  it("refuses access ending today: no reminder could come in time", () => {
    const today = { ...course, access: { kind: "until", expiresAt: "2026-12-10T20:00:00+08:00" } } as const;
    expect(() => buildAccessReminderIcs(today, taipei)).toThrow(/too soon/);
  });

  it("speaks Traditional Chinese and leaves out a missing course link", () => {
    const lines = contentLines(buildAccessReminderIcs({ ...course, courseUrl: null }, { ...taipei, formatLocale: "zh-TW" }));
    expect(lines).toContain("SUMMARY:「Watercolour 101」觀看權限將於 2026年12月13日到期");
    expect(lines.some((line) => line.startsWith("URL:"))).toBe(false);
  });

  it("lets no line break of the course's name start a property of its own", () => {
    const ics = buildAccessReminderIcs({ ...course, name: "Watercolour\rATTENDEE:mailto:x@evil.example" }, taipei);
    expect(ics).not.toMatch(/\r(?!\n)|\n(?<!\r\n)/);
    expect(contentLines(ics).filter((line) => line.startsWith("ATTENDEE"))).toEqual([]);
  });

  it("refuses a course with lifetime access", () => {
    expect(() => buildAccessReminderIcs({ ...course, access: { kind: "lifetime" } }, taipei)).toThrow(/lifetime/);
  });
});
