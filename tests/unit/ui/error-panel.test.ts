import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { ErrorPanel } from "@/components/ui/error-panel";
import { ApiError } from "@/lib/client/api";
import { I18nProvider, type I18nProviderProps } from "@/lib/i18n/provider";

function render(error: unknown, locale: "en" | "zh-TW" = "en"): string {
  const panel = createElement(ErrorPanel, { title: "Your orders could not be loaded.", error, onRetry: () => undefined });
  return renderToStaticMarkup(createElement(I18nProvider, { locale, timeZone: "UTC", now: 0 } as I18nProviderProps, panel));
}

describe("ErrorPanel", () => {
  it("names the missing permission on 403 insufficient_scope and offers to sign in again", () => {
    const html = render(new ApiError(403, "insufficient_scope", "", "account:read"));
    expect(html).toContain("See your courses, progress, orders and event registrations");
    expect(html).toContain("(account:read)");
    expect(html).toMatch(/<a [^>]*href="\/api\/auth\/login\?returnTo=[^"]*"[^>]*>Sign in again<\/a>/);
    expect(html).not.toContain(">Retry<");
  });

  it("says it in Traditional Chinese too", () => {
    expect(render(new ApiError(403, "insufficient_scope", "", "account:read"), "zh-TW")).toContain("重新登入");
  });

  it("offers Retry when the site did not answer", () => {
    const html = render(new ApiError(503, "site_unavailable", ""));
    expect(html).toContain("The site did not answer");
    expect(html).toContain(">Retry<");
  });

  it.each([
    [504, "site_timeout", "The site did not answer in time.", "網站未在時限內回應"],
    [502, "query_failed", "The site could not answer this request.", "網站無法回答這項請求"],
    [502, "answer_too_large", "The site's answer was too large for the dashboard to read.", "網站的回應過大"],
    [502, "site_misconfigured", "The dashboard is not set up correctly for this site.", "儀表板尚未針對此網站正確設定"],
  ])("says what %i %s means, in both languages, never that the site did not answer", (status, code, english, chinese) => {
    const html = render(new ApiError(status, code, ""));
    expect(html).toContain(english.replace("'", "&#x27;"));
    if (code !== "site_timeout") expect(html).not.toContain("The site did not answer");
    expect(render(new ApiError(status, code, ""), "zh-TW")).toContain(chinese);
  });

  it("reads an error the server serialised into the page", () => {
    expect(render({ status: 502, code: "query_failed", message: "" })).toContain("The site could not answer this request.");
  });

  it("says the dashboard is temporarily unavailable, not that the member is signed out, when its shared state does not answer", () => {
    const html = render(new ApiError(503, "temporarily_unavailable", ""));
    expect(html).toContain("You are still signed in");
    expect(html).toContain(">Retry<");
    expect(html).not.toContain("Sign in");
    expect(render(new ApiError(503, "temporarily_unavailable", ""), "zh-TW")).toContain("你仍保持登入");
  });
});
