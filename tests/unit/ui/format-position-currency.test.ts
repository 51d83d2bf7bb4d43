import { describe, expect, it } from "vitest";
import { currencyFractionDigits, formatCurrencyPieces } from "@/lib/format/currency";
import { formatPosition, isPastStart } from "@/lib/format/position";
import { formatRelativeTime, formatTimeAgo } from "@/lib/format/relative";

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

describe("isPastStart", () => {
  it.each([
    [0, false],
    [0.5, false],
    [1, true],
    [754, true],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
  ])("a position at %s s is past the start: %s", (seconds, named) => {
    expect(isPastStart(seconds)).toBe(named);
  });
});

describe("formatCurrencyPieces", () => {
  const formatCurrency = (...args: Parameters<typeof formatCurrencyPieces>) => formatCurrencyPieces(...args).join("");

  it.each(["en-US", "en-GB"] as const)("shows TWD without decimals, although ISO 4217 gives it two (%s)", (english) => {
    expect(currencyFractionDigits("TWD")).toBe(0);
    expect(formatCurrency(1200, "TWD", english)).toBe("NT$1,200");
    expect(formatCurrency(1999.6, "twd", english)).toBe("NT$2,000");
    expect(formatCurrency(1200, "TWD", "zh-TW")).toBe("$1,200");
  });

  it.each(["en-US", "en-GB"] as const)(
    "keeps two decimals for USD, and says US$ in English too (%s; beside NT$ a bare $ is ambiguous)",
    (english) => {
      expect(formatCurrency(12.5, "USD", english)).toBe("US$12.50");
      expect(formatCurrency(12.5, "USD", "zh-TW")).toBe("US$12.50");
    },
  );

  it("lists mixed currencies with their country in both English regions", () => {
    for (const english of ["en-US", "en-GB"] as const) {
      const amounts = [formatCurrency(129, "USD", english), formatCurrency(3200, "TWD", english), formatCurrency(5, "HKD", english)];
      expect(amounts).toEqual(["US$129.00", "NT$3,200", "HK$5.00"]);
    }
  });

  it("shows JPY and KRW without decimals, as each English region writes the yen", () => {
    expect(formatCurrency(1200, "JPY", "en-US")).toBe("¥1,200");
    expect(formatCurrency(1200, "JPY", "en-GB")).toBe("JP¥1,200");
    expect(formatCurrency(15000, "KRW", "en-US")).toBe("₩15,000");
    expect(formatCurrency(15000, "KRW", "en-GB")).toBe("₩15,000");
  });

  it("keeps three decimals where the currency has them", () => {
    expect(formatCurrency(1.5, "KWD", "en-US").replace(/\u00a0/g, " ")).toBe("KWD 1.500");
    expect(formatCurrency(1.5, "KWD", "en-GB").replace(/\u00a0/g, " ")).toBe("KWD 1.500");
  });

  it("still reads sensibly for a code Intl rejects", () => {
    expect(formatCurrency(5, "US", "en-US")).toBe("5.00 US");
    expect(formatCurrency(1234, "US", "en-GB")).toBe("1,234.00 US");
  });

  it("comes in pieces that a line breaks between: its sign and its number, the space ending the first", () => {
    expect(formatCurrencyPieces(129, "USD", "en-US")).toEqual(["US$", "129.00"]);
    expect(formatCurrencyPieces(1200, "TWD", "zh-TW")).toEqual(["$", "1,200"]);
    expect(formatCurrencyPieces(1.5, "KWD", "en-GB")).toEqual(["KWD\u00a0", "1.500"]);
    expect(formatCurrencyPieces(-5, "USD", "en-US")).toEqual(["-US$", "5.00"]);
    expect(formatCurrencyPieces(5, "US", "en-US")).toEqual(["5.00 US"]);
  });
});

describe("formatRelativeTime", () => {
  const now = new Date("2026-12-10T00:00:00Z");
  it.each([
    ["2027-03-12T00:00:00Z", "en-US", "in 3\u00a0months"],
    ["2026-12-13T00:00:00Z", "en-GB", "in 3\u00a0days"],
    ["2027-01-05T00:00:00Z", "en-US", "in 4\u00a0weeks"],
    ["2028-12-10T00:00:00Z", "en-GB", "in 2\u00a0years"],
    ["2026-11-10T00:00:00Z", "en-US", "4\u00a0weeks ago"],
    ["2027-03-12T00:00:00Z", "zh-TW", "3\u00a0個月後"],
    ["2026-12-10T01:00:00Z", "en-GB", "in 1\u00a0hour"],
    ["2026-12-20T00:00:00Z", "en-GB", "in 10\u00a0days"],
    ["2027-12-02T00:00:00Z", "en-GB", "in 1\u00a0year"],
  ] as const)("%s from now reads %s (%s)", (target, locale, expected) => {
    expect(formatRelativeTime(target, now, locale)).toBe(expected);
  });
});

describe("formatTimeAgo", () => {
  // The page clock reads the start of the minute, so a sign-in a few seconds old can be "after" it.
  const now = new Date("2026-12-10T08:30:00Z");
  it.each([
    ["2026-12-10T08:29:30Z", "en-US", "just now"],
    ["2026-12-10T08:30:45Z", "en-GB", "just now"],
    ["2026-12-10T08:35:00Z", "zh-TW", "剛剛"],
    ["2026-12-10T08:29:00Z", "en-US", "1\u00a0minute ago"],
    ["2026-12-10T08:28:00Z", "zh-TW", "2\u00a0分鐘前"],
    ["2026-12-10T05:30:00Z", "en-GB", "3\u00a0hours ago"],
  ] as const)("%s reads %s (%s)", (target, locale, expected) => {
    expect(formatTimeAgo(target, now, locale, locale === "zh-TW" ? "剛剛" : "just now")).toBe(expected);
  });
});
