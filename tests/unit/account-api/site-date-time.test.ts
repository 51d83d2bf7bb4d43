import { afterEach, describe, expect, it } from "vitest";

import { DATE_TIME } from "@/lib/account-api/fragments";
import { resetSiteDateTimeWarningForTests, siteDateTime } from "@/lib/account-api/site-date-time";
import { resetConfigForTests } from "@/lib/config";

import { captureLog } from "../../support/captured-log";
import { configureDashboard } from "../../support/env";

function withSiteTimeZone(zone: string | undefined): void {
  configureDashboard("https://school.example.com");
  if (zone) process.env.SITE_TIME_ZONE = zone;
  else delete process.env.SITE_TIME_ZONE;
  resetConfigForTests();
}

afterEach(() => {
  delete process.env.SITE_TIME_ZONE;
  resetConfigForTests();
  resetSiteDateTimeWarningForTests();
});

describe("a DateTime of the site", () => {
  it("passes one with an offset, a Z or no time at all on as it came, its offset in RFC 3339's form", () => {
    withSiteTimeZone("Asia/Taipei");
    for (const value of ["2026-12-10T20:00:00+08:00", "2026-12-10T12:00:00Z", "2026-12-10T12:00:00.250-05:30", "2026-12-10"]) {
      expect(siteDateTime(value)).toBe(value);
    }
    // PHP's DATE_ISO8601 and a space for the T: the same time, written as ECMAScript asks every browser to read.
    expect(siteDateTime("2026-12-10T20:00:00+0800")).toBe("2026-12-10T20:00:00+08:00");
    expect(siteDateTime("2026-12-10T12:00:00.250-0530")).toBe("2026-12-10T12:00:00.250-05:30");
    expect(siteDateTime("2026-12-10 20:00:00+08:00")).toBe("2026-12-10T20:00:00+08:00");
    expect(siteDateTime("2026-12-10 12:00:00Z")).toBe("2026-12-10T12:00:00Z");
    // Microseconds (Python's and Rails's isoformat) and tenths: milliseconds, in the three digits ECMAScript reads.
    expect(siteDateTime("2026-12-10T20:00:00.123456+08:00")).toBe("2026-12-10T20:00:00.123+08:00");
    expect(siteDateTime("2026-12-10T20:00:00.5Z")).toBe("2026-12-10T20:00:00.500Z");
    expect(siteDateTime("2026-12-10 20:00+0800")).toBe("2026-12-10T20:00+08:00");
  });

  it("reads one without an offset in SITE_TIME_ZONE, summer time included, and gives it that zone's offset", () => {
    withSiteTimeZone("Asia/Taipei");
    expect(siteDateTime("2026-12-10T20:00:00")).toBe("2026-12-10T20:00:00.000+08:00");
    expect(siteDateTime("2026-12-10 20:00")).toBe("2026-12-10T20:00:00.000+08:00");
    expect(siteDateTime("2026-12-10T20:00:00.5")).toBe("2026-12-10T20:00:00.500+08:00");
    // Midnight stays midnight, on its written date: an all-day event keeps its day (lib/format/events.ts).
    expect(siteDateTime("2026-12-24T00:00:00")).toBe("2026-12-24T00:00:00.000+08:00");
    withSiteTimeZone("America/New_York");
    expect(siteDateTime("2026-01-15T09:30:00")).toBe("2026-01-15T09:30:00.000-05:00");
    expect(siteDateTime("2026-07-15T09:30:00")).toBe("2026-07-15T09:30:00.000-04:00");
    // A time the clocks skip (02:00–03:00 on 8 March) reads with the offset before the gap (RFC 5545 section 3.3.5).
    expect(siteDateTime("2026-03-08T02:30:00")).toBe("2026-03-08T03:30:00.000-04:00");
    // Santiago has no midnight on 6 September 2026: an all-day event that day still starts on the 6th.
    withSiteTimeZone("America/Santiago");
    expect(siteDateTime("2026-09-06T00:00:00")).toBe("2026-09-06T01:00:00.000-03:00");
  });

  it("takes 24:00 as the next day's midnight, and refuses a day the calendar lacks or a time past 23:59:59", () => {
    withSiteTimeZone("Asia/Taipei");
    expect(siteDateTime("2026-12-31T24:00:00")).toBe("2027-01-01T00:00:00.000+08:00");
    expect(siteDateTime("2028-02-29T09:00:00")).toBe("2028-02-29T09:00:00.000+08:00");
    // Date.parse reads the first two as days of March (2026-02-30 as 2 March) and refuses the others.
    for (const value of [
      "2026-02-30T10:00:00",
      "2027-02-29T09:00:00",
      "2026-12-10T24:30:00",
      "2026-12-10T20:60:00",
      "2026-12-10T20:00:60",
    ]) {
      expect(siteDateTime(value), value).toBeUndefined();
      const read = DATE_TIME.safeParse(value);
      expect(read.success, value).toBe(false);
      expect(read.error?.issues.map((issue) => issue.message)).toEqual(["expected a date and time"]);
    }
    expect(DATE_TIME.parse("2026-12-10 20:00")).toBe("2026-12-10T20:00:00.000+08:00");
    expect(DATE_TIME.safeParse("next Tuesday").success).toBe(false);
  });

  it("without SITE_TIME_ZONE, reads it as UTC and warns once per process, naming the setting", () => {
    withSiteTimeZone(undefined);
    const log = captureLog();
    expect(siteDateTime("2026-12-10T20:00:00")).toBe("2026-12-10T20:00:00.000Z");
    expect(siteDateTime("2026-12-11 08:00:00")).toBe("2026-12-11T08:00:00.000Z");
    expect(siteDateTime("2026-12-10T20:00:00+08:00")).toBe("2026-12-10T20:00:00+08:00");
    expect(log.events().filter((event) => event.event === "site_date_without_offset")).toEqual([
      expect.objectContaining({ level: "warn", readAs: "UTC", setting: "SITE_TIME_ZONE" }),
    ]);
  });
});
