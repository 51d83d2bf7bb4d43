import { describe, expect, it } from "vitest";
import { currencyFractionDigits, formatCurrency } from "@/lib/format/currency";
import { formatPosition } from "@/lib/format/position";
import { formatRelativeTime } from "@/lib/format/relative";

describe("formatPosition", () => {
  it.each([
    [0, "0:00"],
    [5, "0:05"],
    [59.9, "0:59"],
    [60, "1:00"],
    [754, "12:34"],
    [3599, "59:59"],
    [3600, "1:00:00"],
    [3725, "1:02:05"],
    [36_000 + 61, "10:01:01"],
    [100 * 3600, "100:00:00"],
    [-3, "0:00"],
    [Number.NaN, "0:00"],
  ])("%s seconds reads %s", (seconds, expected) => {
    expect(formatPosition(seconds)).toBe(expected);
  });
});

describe("formatCurrency", () => {
  it("shows TWD without decimals, although ISO 4217 gives it two", () => {
    expect(currencyFractionDigits("TWD")).toBe(0);
    expect(formatCurrency(1200, "TWD", "en")).toBe("NT$1,200");
    expect(formatCurrency(1999.6, "twd", "en")).toBe("NT$2,000");
    expect(formatCurrency(1200, "TWD", "zh-TW")).toBe("$1,200");
  });

  it("keeps two decimals for USD, and says US$ in English too (beside NT$ a bare $ is ambiguous)", () => {
    expect(formatCurrency(12.5, "USD", "en")).toBe("US$12.50");
    expect(formatCurrency(12.5, "USD", "zh-TW")).toBe("US$12.50");
  });

  it("shows JPY and KRW without decimals", () => {
    expect(formatCurrency(1200, "JPY", "en")).toBe("¥1,200");
    expect(formatCurrency(15000, "KRW", "en")).toBe("₩15,000");
  });

  it("keeps three decimals where the currency has them", () => {
    expect(formatCurrency(1.5, "KWD", "en").replace(/\u00a0/g, " ")).toBe("KWD 1.500");
  });

  it("still reads sensibly for a code Intl rejects", () => {
    expect(formatCurrency(5, "US", "en")).toBe("5.00 US");
  });
});

describe("formatRelativeTime", () => {
  const now = new Date("2026-12-10T00:00:00Z");
  it.each([
    ["2027-03-12T00:00:00Z", "en", "in 3 months"],
    ["2026-12-13T00:00:00Z", "en", "in 3 days"],
    ["2027-01-05T00:00:00Z", "en", "in 4 weeks"],
    ["2028-12-10T00:00:00Z", "en", "in 2 years"],
    ["2026-11-10T00:00:00Z", "en", "4 weeks ago"],
    ["2027-03-12T00:00:00Z", "zh-TW", "3 個月後"],
  ] as const)("%s from now reads %s (%s)", (target, locale, expected) => {
    expect(formatRelativeTime(target, now, locale)).toBe(expected);
  });
});
