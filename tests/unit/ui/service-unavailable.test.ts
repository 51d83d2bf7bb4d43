import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { ServiceUnavailable } from "@/components/ui/service-unavailable";
import { I18nProvider, type I18nProviderProps } from "@/lib/i18n/provider";

function render(locale: "en" | "zh-TW"): string {
  const page = createElement(ServiceUnavailable, { retryPath: "/courses" });
  return renderToStaticMarkup(createElement(I18nProvider, { locale, timeZone: "UTC", now: 0 } as I18nProviderProps, page));
}

describe("ServiceUnavailable", () => {
  it("says the service is temporarily unavailable, in English and Traditional Chinese, with a Retry link to the same page", () => {
    const en = render("en");
    expect(en).toContain('role="alert"');
    expect(en).toMatch(/<h1[^>]*>The service is temporarily unavailable<\/h1>/);
    expect(en).toMatch(/<a [^>]*href="\/courses"[^>]*>Retry<\/a>/);
    const zh = render("zh-TW");
    expect(zh).toMatch(/<h1[^>]*>服務暫時無法使用<\/h1>/);
    expect(zh).toMatch(/<a [^>]*href="\/courses"[^>]*>重試<\/a>/);
  });
});
