import { describe, expect, it } from "vitest";

import { collator, dateTimeFormat, MAX_FORMATTERS, relativeTimeFormat, sharedFormatterCount } from "@/lib/format/intl-formatters";

describe("shared Intl formatters", () => {
  it("makes one formatter per locale and options and hands the same one back", () => {
    const options: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", timeZone: "Asia/Taipei" };
    const first = dateTimeFormat("en-GB", options);
    expect(dateTimeFormat("en-GB", { ...options })).toBe(first);
    expect(dateTimeFormat("zh-TW", options)).not.toBe(first);
    expect(dateTimeFormat("en-GB", { ...options, timeZone: "America/New_York" })).not.toBe(first);
    expect(collator("en", { sensitivity: "base" })).toBe(collator("en", { sensitivity: "base" }));
    expect(relativeTimeFormat("en-GB", { numeric: "always" })).toBe(relativeTimeFormat("en-GB", { numeric: "always" }));
  });

  it("keeps each kind apart: a collator and a relative-time format of the same locale and options are their own", () => {
    const made = collator("en-GB", {});
    expect(made).toBeInstanceOf(Intl.Collator);
    expect(dateTimeFormat("en-GB", {})).toBeInstanceOf(Intl.DateTimeFormat);
    expect(relativeTimeFormat("en-GB", {})).toBeInstanceOf(Intl.RelativeTimeFormat);
    expect(collator("en-GB", {})).toBe(made);
  });

  it("formats exactly as a fresh formatter does", () => {
    const instant = new Date("2027-03-12T23:30:00Z");
    const options: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric", timeZone: "Asia/Taipei" };
    expect(dateTimeFormat("zh-TW", options).format(instant)).toBe(new Intl.DateTimeFormat("zh-TW", options).format(instant));
    expect(collator("en", { sensitivity: "base", numeric: true }).compare("Course 10", "course 9")).toBe(1);
  });

  it("refuses an unknown time zone as Intl does, and keeps nothing for it", () => {
    const before = sharedFormatterCount();
    expect(() => dateTimeFormat("en-GB", { timeZone: "Mars/Olympus_Mons" })).toThrow(RangeError);
    expect(sharedFormatterCount()).toBe(before);
  });

  it("stays bounded whatever time zones arrive", () => {
    const zones = Intl.supportedValuesOf("timeZone");
    const hours = ["numeric", "2-digit"] as const;
    // More distinct zone and option pairs than the cache keeps.
    expect(zones.length * hours.length).toBeGreaterThan(MAX_FORMATTERS);
    for (const timeZone of zones) for (const hour of hours) dateTimeFormat("en-GB", { timeZone, hour });
    expect(sharedFormatterCount()).toBeLessThanOrEqual(MAX_FORMATTERS);
  });
});
