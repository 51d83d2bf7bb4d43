import { describe, expect, it } from "vitest";

import { uiLocalesFor } from "@/lib/i18n/locales";

/** The `ui_locales` the dashboard sends to a site that lists its pages' languages (lib/auth/login.ts, end-session.ts). */
describe("ui_locales (OpenID Connect Core 3.1.2.1)", () => {
  it("is the member's language, then English, as the dashboard writes them when the site lists no tag for them", () => {
    expect(uiLocalesFor("zh-TW")).toBe("zh-TW en");
    expect(uiLocalesFor("en")).toBe("en");
    expect(uiLocalesFor("zh-TW", ["ja", "zh-CN"])).toBe("zh-TW en");
  });

  it("writes each as the site's own list does, for a site that compares tags exactly", () => {
    expect(uiLocalesFor("zh-TW", ["en-US", "zh-Hant-TW", "ja"])).toBe("zh-Hant-TW en-US");
    expect(uiLocalesFor("en", ["fr", "en-GB", "en-US"])).toBe("en-GB");
    expect(uiLocalesFor("zh-TW", ["zh-hk", "en"])).toBe("zh-hk en");
  });

  it("sends back nothing of the site's list that is not a language tag", () => {
    expect(uiLocalesFor("zh-TW", [7, null, "zh-TW-<script>", "zh-TW&x=1", "zh-Hant"])).toBe("zh-Hant en");
    expect(uiLocalesFor("en", ["en-<b>", "en-GB x", { tag: "en" }])).toBe("en");
  });
});
