import { describe, expect, it } from "vitest";

import { sharedFormatterCount } from "@/lib/format/intl-formatters";
import {
  acceptLanguageFor,
  checkedTimeZoneCount,
  describeScope,
  getMessages,
  interpolate,
  LOCALES,
  MAX_CHECKED_TIME_ZONES,
  negotiateLocale,
  rankLanguageRanges,
  resolveTimeZone,
  siteCalled,
} from "@/lib/i18n";
import { CONNECTIONS_WORDS } from "@/lib/i18n/messages/connections";
import { ORDERS_WORDS } from "@/lib/i18n/messages/orders";
import { EMBEDDED_SIGN_IN_WORDS } from "@/lib/i18n/messages/embedded-sign-in";
import { POPUP_DONE_WORDS } from "@/lib/i18n/messages/popup-done";
import { SESSIONS_WORDS } from "@/lib/i18n/messages/sessions";
import { SETTINGS_WORDS } from "@/lib/i18n/messages/settings";
import { SIGN_IN_PROBLEM_WORDS } from "@/lib/i18n/messages/sign-in-problem";

type Tree = { readonly [key: string]: string | Tree };

function leafPaths(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [`${prefix}${key}`] : leafPaths(value, `${prefix}${key}.`),
  );
}

function lookup(tree: Tree, path: string): Tree | string {
  return path.split(".").reduce<Tree | string>((node, key) => (node as Tree)[key] ?? "", tree);
}

function leaves(tree: Tree): string[] {
  return Object.values(tree).flatMap((value) => (typeof value === "string" ? [value] : leaves(value)));
}

describe("message dictionaries", () => {
  const en = getMessages("en") as unknown as Tree;
  const zh = getMessages("zh-TW") as unknown as Tree;

  it("have the same keys in every language", () => {
    expect(leafPaths(zh).sort()).toEqual(leafPaths(en).sort());
  });

  it("have no empty texts, and zh-TW keeps every placeholder English has", () => {
    for (const locale of LOCALES) {
      expect(leaves(getMessages(locale) as unknown as Tree).every((text) => text.trim().length > 0)).toBe(true);
    }
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const enPaths = leafPaths(en);
    for (const path of enPaths) {
      expect([path, placeholders(lookup(zh, path) as string)]).toEqual([path, placeholders(lookup(en, path) as string)]);
    }
  });

  it.each([
    ["the sign-in problem page's words, kept on the server", SIGN_IN_PROBLEM_WORDS],
    ["the AI assistants panel's words, kept to the Settings page", CONNECTIONS_WORDS],
    ["the sign-in list's words, kept to the Settings page", SESSIONS_WORDS],
    ["the Settings pages' own words", SETTINGS_WORDS],
    ["the Orders page's words", ORDERS_WORDS],
    ["the words of the popup that ends a sign-in from the panel", POPUP_DONE_WORDS],
    ["the panel's sign-in words, kept to the signed-out landing", EMBEDDED_SIGN_IN_WORDS],
  ] as const)("%s, have the same keys and placeholders in every language", (_name, words) => {
    const enWords = words.en as unknown as Tree;
    const zhWords = words["zh-TW"] as unknown as Tree;
    expect(leafPaths(zhWords).sort()).toEqual(leafPaths(enWords).sort());
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const path of leafPaths(enWords)) {
      expect([path, placeholders(lookup(zhWords, path) as string)]).toEqual([path, placeholders(lookup(enWords, path) as string)]);
    }
    expect(leafPaths(zhWords).filter((path) => (lookup(zhWords, path) as string).includes("您"))).toEqual([]);
  });

  it("address the member one way in zh-TW: the informal 你 everywhere, never 您 beside it", () => {
    const formal = leafPaths(zh).filter((path) => (lookup(zh, path) as string).includes("您"));
    expect(formal).toEqual([]);
  });

  it("keep the accessible names the tests rely on in English", () => {
    const messages = getMessages("en");
    expect(Object.values(messages.nav)).toEqual(["Overview", "Courses", "Orders", "Events", "Settings"]);
    expect(messages.landing.signIn).toBe("Sign in");
    expect(SETTINGS_WORDS.en.revoke).toBe("Revoke access");
    expect(SETTINGS_WORDS.en.revokeConfirm.toLowerCase()).not.toContain("revoke access");
    expect(messages.courses.resumeAt.startsWith("Resume")).toBe(true);
    expect(messages.courses.resume).toBe("Resume");
  });
});

describe("siteCalled", () => {
  const en = getMessages("en");
  const zh = getMessages("zh-TW");

  it("names the site by its own name, in 「」 in Chinese", () => {
    expect(interpolate(zh.signedOutPage.siteStillSignedIn, { site: siteCalled(zh, "Demo Academy") })).toBe(
      "你在「Demo Academy」仍保持登入。若使用的是共用電腦，請開啟「Demo Academy」並在那裡登出。",
    );
    expect(interpolate(en.signedOutPage.openSite, { site: siteCalled(en, "Demo Academy") })).toBe("Open Demo Academy");
    // After the site's own end-session endpoint: what the member needs to know, in plain words.
    expect(interpolate(en.signedOutPage.siteSignedOut, { site: siteCalled(en, "Demo Academy") })).toBe(
      "You are also signed out of Demo Academy.",
    );
    expect(interpolate(zh.signedOutPage.siteSignedOut, { site: siteCalled(zh, "Demo Academy") })).toBe("你在「Demo Academy」也已登出。");
  });

  it('says "the site" without quotation marks when the site gives no name or it could not be learnt', () => {
    expect(interpolate(zh.signedOutPage.siteStillSignedIn, { site: siteCalled(zh, null) })).toBe(
      "你在網站仍保持登入。若使用的是共用電腦，請開啟網站並在那裡登出。",
    );
    expect(interpolate(zh.emptyStates.browseCourses, { site: siteCalled(zh, null) })).toBe("在網站瀏覽課程");
    expect(interpolate(en.signedOutPage.siteSignedOut, { site: siteCalled(en, null) })).toBe("You are also signed out of the site.");
  });

  it("leaves the quotation marks to it: no Chinese text puts its own around {site}", () => {
    expect(leaves(zh as unknown as Tree).filter((text) => text.includes("「{site}」"))).toEqual([]);
  });
});

describe("describeScope", () => {
  it("explains known scopes in plain words and names unknown ones", () => {
    const en = getMessages("en");
    expect(describeScope("account:read", en)).toBe("See your courses, progress, orders and event registrations");
    expect(describeScope("openid", getMessages("zh-TW"))).toBe("登入時確認你的身分");
    expect(describeScope("mcp:tools", en)).toBe("Other permission (mcp:tools)");
    expect(describeScope("unknown", en)).toBe("Other permission (unknown)");
    expect(describeScope("toString", en)).toBe("Other permission (toString)");
  });
});

describe("negotiateLocale", () => {
  it.each([
    [null, undefined, "en"],
    ["", null, "en"],
    ["zh-TW,zh;q=0.9,en;q=0.8", null, "zh-TW"],
    ["zh-Hant-HK", null, "zh-TW"],
    ["zh-CN,zh;q=0.9,en;q=0.5", null, "en"],
    ["fr-FR,fr;q=0.9", null, "en"],
    ["en;q=0.5, zh-TW;q=0.9", null, "zh-TW"],
    ["zh-TW;q=0, en", null, "en"],
    ["en-GB", "zh-TW", "zh-TW"],
    ["zh-TW", "en", "en"],
    ["zh-TW", "de", "zh-TW"],
  ] as const)("Accept-Language %j with cookie %j → %s", (header, cookie, expected) => {
    expect(negotiateLocale(header, cookie)).toBe(expected);
  });
});

describe("acceptLanguageFor", () => {
  it.each(LOCALES)("asks the site for %s first, with English, which every site writes, among what it takes", (locale) => {
    const ranked = rankLanguageRanges(acceptLanguageFor(locale)).map((range) => range.tag);
    expect(ranked[0]).toBe(locale);
    expect(ranked).toContain("en");
  });
});

describe("interpolate and resolveTimeZone", () => {
  it("fills placeholders and leaves unknown ones alone", () => {
    expect(interpolate("Resume at {position} {missing}", { position: "12:34" })).toBe("Resume at 12:34 {missing}");
  });

  it("accepts IANA zones and falls back for anything else", () => {
    expect(resolveTimeZone("Asia/Taipei")).toBe("Asia/Taipei");
    expect(resolveTimeZone("Not/AZone")).toBe("UTC");
    expect(resolveTimeZone(undefined, "Europe/London")).toBe("Europe/London");
  });

  it("gives a zone as Intl names it, whatever the cookie's spelling, as the browser's own zone is given", () => {
    expect(resolveTimeZone("asia/taipei")).toBe("Asia/Taipei");
    expect(resolveTimeZone("Etc/UTC")).toBe("UTC");
  });

  it("checks a zone with its shared formatter: asking again makes no new one, and a refused zone stores none", () => {
    const before = sharedFormatterCount();
    expect(resolveTimeZone("America/Sao_Paulo")).toBe("America/Sao_Paulo");
    expect(sharedFormatterCount()).toBe(before + 1);
    expect(resolveTimeZone("America/Sao_Paulo")).toBe("America/Sao_Paulo");
    expect(resolveTimeZone("Not/AZone")).toBe("UTC");
    expect(sharedFormatterCount()).toBe(before + 1);
  });

  it("remembers each cookie value it checked, refused ones too, and stays bounded whatever values arrive", () => {
    const refused = "Not/Remembered";
    const before = checkedTimeZoneCount();
    expect(resolveTimeZone(refused)).toBe("UTC");
    expect(checkedTimeZoneCount()).toBe(before + 1);
    // Asked again, the value is not checked again: the same answer, nothing added.
    expect(resolveTimeZone(refused, "Europe/London")).toBe("Europe/London");
    expect(resolveTimeZone("America/Sao_Paulo")).toBe("America/Sao_Paulo");
    expect(checkedTimeZoneCount()).toBe(before + 1);
    for (let index = 0; index < MAX_CHECKED_TIME_ZONES * 2; index += 1) resolveTimeZone(`Invented/Zone_${index}`);
    expect(checkedTimeZoneCount()).toBeLessThanOrEqual(MAX_CHECKED_TIME_ZONES);
    expect(resolveTimeZone("Asia/Taipei")).toBe("Asia/Taipei");
  });
});
