import { describe, expect, it } from "vitest";
import { describeAccess, hasAccessEnded, isAccessEndingSoon } from "@/lib/format/access";

const taipei = { formatLocale: "en-GB", timeZone: "Asia/Taipei" } as const;
const until = (expiresAt: string) => ({ kind: "until", expiresAt }) as const;

describe("describeAccess", () => {
  it("says lifetime access in words", () => {
    expect(describeAccess({ kind: "lifetime" }, { ...taipei, now: new Date("2026-12-10T00:00:00Z") })).toEqual({
      tone: "lifetime",
      text: "Lifetime access",
      keepTogether: [],
    });
  });

  it("gives the date and the distance for access ending months away", () => {
    const result = describeAccess(until("2027-03-12T10:00:00+08:00"), { ...taipei, now: new Date("2026-12-10T00:00:00Z") });
    expect(result).toEqual({
      tone: "ok",
      text: "Access until 12 Mar 2027 (in 3\u00a0months)",
      keepTogether: ["12 Mar 2027", "in 3\u00a0months"],
    });
  });

  it("warns when access ends later today, counting days in the member's time zone", () => {
    // 09:00 in Taipei; access ends 23:30 the same Taipei day (15:30Z).
    const now = new Date("2026-12-10T01:00:00Z");
    expect(describeAccess(until("2026-12-10T15:30:00Z"), { ...taipei, now })).toEqual({
      tone: "warning",
      text: "Access ends today",
      keepTogether: [],
    });
    // The same instant is already 11 Dec in Taipei if it is after 16:00Z, so it reads "tomorrow".
    expect(describeAccess(until("2026-12-10T16:30:00Z"), { ...taipei, now })).toEqual({
      tone: "warning",
      text: "Access ends tomorrow",
      keepTogether: [],
    });
  });

  it("says tomorrow only for the next calendar day, and counts the day after it as two days", () => {
    const now = new Date("2026-12-10T01:00:00Z"); // 09:00 on 10 Dec in Taipei
    expect(describeAccess(until("2026-12-11T20:00:00+08:00"), { ...taipei, now }).text).toBe("Access ends tomorrow");
    expect(describeAccess(until("2026-12-12T08:00:00+08:00"), { ...taipei, now }).text).toBe("Access ends in 2\u00a0days");
  });

  it("counts calendar days, not 24-hour periods", () => {
    const now = new Date("2026-12-10T15:00:00Z"); // 23:00 in Taipei
    expect(describeAccess(until("2026-12-13T01:00:00Z"), { ...taipei, now }).text).toBe("Access ends in 3\u00a0days");
  });

  it("treats the edge of the 30-day window as a warning and just past it as ok", () => {
    const now = new Date("2026-12-01T00:00:00Z");
    expect(describeAccess(until("2026-12-31T00:00:00Z"), { formatLocale: "en-GB", timeZone: "UTC", now })).toEqual({
      tone: "warning",
      text: "Access ends in 30\u00a0days",
      keepTogether: [],
    });
    expect(describeAccess(until("2026-12-31T00:00:01Z"), { formatLocale: "en-GB", timeZone: "UTC", now }).tone).toBe("ok");
  });

  it("mutes access that ended (the expiry instant itself counts as ended)", () => {
    const now = new Date("2026-11-03T04:00:00Z");
    expect(describeAccess(until("2026-11-02T09:00:00+08:00"), { ...taipei, now })).toEqual({
      tone: "ended",
      text: "Access ended on 2 Nov 2026",
      keepTogether: ["2 Nov 2026"],
    });
    expect(hasAccessEnded(until("2026-11-03T04:00:00Z"), now)).toBe(true);
    expect(isAccessEndingSoon(until("2026-11-03T04:00:00Z"), now)).toBe(false);
  });

  it("formats the ended date in the member's zone, where it may be a different day", () => {
    const now = new Date("2026-12-01T00:00:00Z");
    const expiry = until("2026-11-02T02:00:00Z"); // 1 Nov 22:00 in New York, 2 Nov 10:00 in Taipei
    expect(describeAccess(expiry, { formatLocale: "en-GB", timeZone: "America/New_York", now }).text).toBe("Access ended on 1 Nov 2026");
    expect(describeAccess(expiry, { ...taipei, now }).text).toBe("Access ended on 2 Nov 2026");
  });

  it("speaks Traditional Chinese", () => {
    const now = new Date("2026-12-10T00:00:00Z");
    const zh = { formatLocale: "zh-TW", timeZone: "Asia/Taipei", now } as const;
    expect(describeAccess({ kind: "lifetime" }, zh).text).toBe("永久觀看");
    expect(describeAccess(until("2027-03-12T10:00:00+08:00"), zh).text).toBe("可觀看至 2027年3月12日（3\u00a0個月後）");
    expect(describeAccess(until("2026-12-13T10:00:00+08:00"), zh).text).toBe("觀看權限將在 3\u00a0天後到期");
    expect(describeAccess(until("2026-11-02T10:00:00+08:00"), zh).text).toBe("觀看權限已於 2026年11月2日到期");
  });
});
