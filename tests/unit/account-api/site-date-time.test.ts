import { afterEach, describe, expect, it } from "vitest";

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
  it("passes one with an offset, a Z or no time at all on as it came", () => {
    withSiteTimeZone("Asia/Taipei");
    for (const value of ["2026-12-10T20:00:00+08:00", "2026-12-10T12:00:00Z", "2026-12-10T12:00:00.250-05:30", "2026-12-10"]) {
      expect(siteDateTime(value)).toBe(value);
    }
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
