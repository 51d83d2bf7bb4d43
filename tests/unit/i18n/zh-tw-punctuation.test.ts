import { describe, expect, it } from "vitest";

import { formatTime } from "@/lib/format/datetime";

import { allMessageTexts } from "../../support/message-texts";

/** Every zh-TW text: the dictionary and each set of words kept apart from it (the crash page's, Settings', Orders'…). */
const ZH_TW_TEXTS = (await allMessageTexts()).filter((entry) => entry.locale === "zh-TW");

/** What is not prose: `{placeholders}` and URLs. */
function withoutPlaceholdersAndUrls(text: string): string {
  return text.replace(/\{[\w.]+\}/g, "").replace(/\bhttps?:\/\/\S+/g, "");
}

/** Chinese typography (Taiwan's 重訂標點符號手冊): full-width colon, parentheses and comma in sentences. */
function halfWidthPunctuationIn(text: string): string[] {
  const prose = withoutPlaceholdersAndUrls(text);
  if (!/\p{Script=Han}/u.test(prose)) return [];
  const found: string[] = [];
  for (const match of prose.matchAll(/[:()]/g)) found.push(match[0]);
  // A half-width comma next to Chinese text (a number such as 1,800 is not a sentence comma).
  for (const match of prose.matchAll(/(?<=\p{Script=Han}|[\s」）])\s*,|,(?=\s*\p{Script=Han})/gu)) found.push(match[0].trim());
  return found;
}

describe("繁體中文 punctuation", () => {
  it("finds half-width colons, parentheses and commas in Chinese sentences, but not in placeholders, URLs or numbers", () => {
    expect(halfWidthPunctuationIn("參考代碼:{code}")).toEqual([":"]);
    expect(halfWidthPunctuationIn("AI 助理(測試版)")).toEqual(["(", ")"]);
    expect(halfWidthPunctuationIn("課程,活動")).toEqual([","]);
    expect(halfWidthPunctuationIn("參考代碼：{code}")).toEqual([]);
    expect(halfWidthPunctuationIn("退款 NT$1,800，請見 https://example.com/a:b")).toEqual([]);
    expect(halfWidthPunctuationIn("{time} ({zone})")).toEqual([]);
  });

  it("uses full-width ：（），in every zh-TW message", () => {
    const offenders = ZH_TW_TEXTS.map(({ key, text }) => ({ key, text, found: halfWidthPunctuationIn(text) })).filter(
      (entry) => entry.found.length > 0,
    );
    expect(offenders).toEqual([]);
  });

  it("writes a date straight against the Chinese after it: 「2026年11月2日到期」, not 「2026年11月2日 到期」", () => {
    // A zh-TW date ends in 日 (Intl's 2026年11月2日), so a space after {date} falls between two Chinese characters.
    const spaced = ZH_TW_TEXTS.filter(({ text }) => /\{date\} \p{Script=Han}/u.test(text));
    expect(spaced).toEqual([]);
  });

  it("writes a time of day straight against the Chinese around it: 「你在上午9:05看到」, not 「你在 上午9:05 看到」", () => {
    // A zh-TW time of day starts with its period of the day (Intl's 上午9:05, 晚上7:00), so a space before
    // {time} falls between two Chinese characters; one after it would set the time apart from its sentence.
    expect(formatTime(Date.UTC(2026, 10, 24, 1, 5), { formatLocale: "zh-TW", timeZone: "Asia/Taipei" })).toMatch(/^\p{Script=Han}/u);
    const spaced = ZH_TW_TEXTS.filter(({ text }) => /\p{Script=Han} \{time\}|\{time\} \p{Script=Han}/u.test(text));
    expect(spaced).toEqual([]);
  });
});
