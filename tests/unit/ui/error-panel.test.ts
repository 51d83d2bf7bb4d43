// @vitest-environment happy-dom
import { cleanup, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";

import { ErrorPanel } from "@/components/ui/error-panel";
import { ApiError } from "@/lib/client/api";

import { renderInLocale } from "../../support/render-ui";

afterEach(cleanup);

function renderPanel(error: unknown, locale: "en" | "zh-TW" = "en") {
  return renderInLocale(createElement(ErrorPanel, { title: "Your orders could not be loaded.", error, onRetry: () => undefined }), locale);
}

describe("ErrorPanel", () => {
  it("names the missing permission on 403 insufficient_scope and offers to sign in again, not Retry", () => {
    renderPanel(new ApiError(403, "insufficient_scope", "", "account:read"));
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("See your courses, progress, orders and event registrations");
    expect(alert.textContent).toContain("(account:read)");
    expect(screen.getByRole("link", { name: "Sign in again" }).getAttribute("href")).toMatch(/^\/api\/auth\/login\?returnTo=/);
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });

  it("says it in Traditional Chinese too", () => {
    renderPanel(new ApiError(403, "insufficient_scope", "", "account:read"), "zh-TW");
    expect(screen.getByRole("link", { name: "重新登入" })).toBeDefined();
  });

  it("offers Retry when the site is not available, in words true of a site that is down and of one that answered 5xx", () => {
    renderPanel(new ApiError(503, "site_unavailable", ""));
    const text = screen.getByRole("alert").textContent;
    expect(text).toContain("The site is not available right now. Please try again in a moment.");
    // The same code covers a 500 from the site: "did not answer" would not be true of it.
    expect(text).not.toContain("did not answer");
    expect(screen.getByRole("button", { name: "Retry" })).toBeDefined();
    cleanup();
    renderPanel(new ApiError(503, "site_unavailable", ""), "zh-TW");
    expect(screen.getByRole("alert").textContent).toContain("網站目前無法使用，請稍後再試。");
  });

  it.each([
    [504, "site_timeout", "The site did not answer in time.", "網站未在時限內回應"],
    [502, "query_failed", "The site could not answer this request.", "網站無法回答這項請求"],
    [502, "answer_too_large", "The site's answer was too large for the dashboard to read.", "網站的回應過大"],
    [502, "site_misconfigured", "The dashboard is not set up correctly for this site.", "儀表板尚未針對此網站正確設定"],
  ])("says what %i %s means, in both languages, never that the site did not answer", (status, code, english, chinese) => {
    renderPanel(new ApiError(status, code, ""));
    const text = screen.getByRole("alert").textContent;
    expect(text).toContain(english);
    if (code !== "site_timeout") expect(text).not.toContain("The site did not answer");
    cleanup();
    renderPanel(new ApiError(status, code, ""), "zh-TW");
    expect(screen.getByRole("alert").textContent).toContain(chinese);
  });

  it.each<[number | undefined, string, string]>([
    [undefined, "The site is busy right now. Please try again in a moment.", "網站目前忙碌中，請稍後再試。"],
    [1, "Please try again in 1\u00a0second.", "請於 1\u00a0秒後再試。"],
    [30, "Please try again in 30\u00a0seconds.", "請於 30\u00a0秒後再試。"],
    [89, "Please try again in 89\u00a0seconds.", "請於 89\u00a0秒後再試。"],
    [150, "Please try again in 3\u00a0minutes.", "請於 3\u00a0分鐘後再試。"],
    [5400, "Please try again in 2\u00a0hours.", "請於 2\u00a0小時後再試。"],
  ])("says the site is busy and, waiting %s seconds, for how long, in both languages, with Retry", (wait, english, chinese) => {
    renderPanel(new ApiError(503, "site_busy", "", undefined, wait));
    expect(screen.getByRole("alert").textContent).toContain(english);
    expect(screen.getByRole("alert").textContent).toContain("The site is busy right now.");
    expect(screen.getByRole("button", { name: "Retry" })).toBeDefined();
    cleanup();
    // As the server serialised it into the page.
    renderPanel({ status: 503, code: "site_busy", message: "", ...(wait === undefined ? {} : { retryAfterSeconds: wait }) }, "zh-TW");
    expect(screen.getByRole("alert").textContent).toContain(chinese);
  });

  it("says too many attempts came from here, and for how long to wait when the dashboard said, in both languages", () => {
    renderPanel(new ApiError(429, "rate_limited", "", "session", 42));
    expect(screen.getByRole("alert").textContent).toContain("Too many attempts from here. Please try again in 42\u00a0seconds.");
    cleanup();
    renderPanel({ status: 429, code: "rate_limited", message: "", detail: "client" }, "zh-TW");
    expect(screen.getByRole("alert").textContent).toContain("這裡的嘗試次數過多，請稍候再試。");
    cleanup();
    renderPanel({ status: 429, code: "rate_limited", message: "", retryAfterSeconds: 600 }, "zh-TW");
    expect(screen.getByRole("alert").textContent).toContain("這裡的嘗試次數過多，請於 10\u00a0分鐘後再試。");
  });

  it("says the site is not available and, when a 503 named it, for how long, in both languages", () => {
    renderPanel(new ApiError(503, "site_unavailable", "", undefined, 600));
    expect(screen.getByRole("alert").textContent).toContain("The site is not available right now. Please try again in 10\u00a0minutes.");
    cleanup();
    renderPanel({ status: 503, code: "refresh_unavailable", message: "", retryAfterSeconds: 45 }, "zh-TW");
    expect(screen.getByRole("alert").textContent).toContain("網站目前無法使用，請於 45\u00a0秒後再試。");
  });

  it("names no wait it cannot read", () => {
    for (const retryAfterSeconds of [0, -5, 1.5, "30", Number.NaN]) {
      renderPanel({ status: 503, code: "site_busy", message: "", retryAfterSeconds });
      expect(screen.getByRole("alert").textContent).toContain("The site is busy right now. Please try again in a moment.");
      cleanup();
    }
  });

  it("reads an error the server serialised into the page", () => {
    renderPanel({ status: 502, code: "query_failed", message: "" });
    expect(screen.getByRole("alert").textContent).toContain("The site could not answer this request.");
  });

  it("says the dashboard is temporarily unavailable, not that the member is signed out, when its shared state does not answer", () => {
    renderPanel(new ApiError(503, "temporarily_unavailable", ""));
    expect(screen.getByRole("alert").textContent).toContain("You are still signed in");
    expect(screen.getByRole("button", { name: "Retry" })).toBeDefined();
    expect(screen.queryByRole("link", { name: /Sign in/ })).toBeNull();
    cleanup();
    renderPanel(new ApiError(503, "temporarily_unavailable", ""), "zh-TW");
    expect(screen.getByRole("alert").textContent).toContain("你仍保持登入");
  });
});
