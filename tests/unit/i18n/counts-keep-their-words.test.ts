import { describe, expect, it } from "vitest";

import { LOCALES } from "@/lib/i18n/locales";

import { allMessageTexts } from "../../support/message-texts";

/** The placeholders that hold a number of things ("{count} courses", "Show {count} more ({left} left)"). */
const COUNTS = ["count", "left", "loaded", "shown", "total"] as const;

const TEXTS = await allMessageTexts();

/**
 * The numbers in `text` (a count's placeholder or digits) followed by a plain space and a word, where a narrow
 * line may end and leave the word to the next.
 */
function countsBeforeAPlainSpace(text: string): string[] {
  return [...text.matchAll(/(\{(\w+)\}|\d+) (?=\p{L})/gu)]
    .filter(([, , name]) => name === undefined || (COUNTS as readonly string[]).includes(name))
    .map(([, number]) => number!);
}

describe("a number and the word after it", () => {
  it("finds a count before a plain space, and nothing before a no-break space or other placeholders", () => {
    expect(countsBeforeAPlainSpace("Show {count} more ({left} left)")).toEqual(["{count}", "{left}"]);
    expect(countsBeforeAPlainSpace("有 1 門課程，未來 30 天內")).toEqual(["1", "30"]);
    expect(countsBeforeAPlainSpace("Show {count}\u00a0more ({left}\u00a0left), in the next 30\u00a0days")).toEqual([]);
    expect(countsBeforeAPlainSpace("{site} ends {date} at {time}, 2026 · 12:34")).toEqual([]);
  });

  it("are joined by a no-break space in every message of both languages (as the waits and dates are)", () => {
    // On a 320 px phone "And 12" / "more courses" or "再顯示 24" / "門" reads as a number left alone; the texts
    // the dashboard formats (lib/format/relative.ts, "Access ends in 3 days") already keep them together.
    const parted = TEXTS.filter(({ text }) => countsBeforeAPlainSpace(text).length > 0).map(({ key, text }) => `${key}: ${text}`);
    expect(parted).toEqual([]);
  });

  it("finds each count it knows by name in the messages of both languages", () => {
    // A count placeholder renamed in the messages but not here would make the check above pass on nothing.
    for (const locale of LOCALES) {
      const texts = TEXTS.filter((entry) => entry.locale === locale);
      const held = new Set(texts.flatMap(({ text }) => [...text.matchAll(/\{(\w+)\}/g)].map(([, name]) => name)));
      expect(
        COUNTS.filter((name) => !held.has(name)),
        locale,
      ).toEqual([]);
    }
  });
});
