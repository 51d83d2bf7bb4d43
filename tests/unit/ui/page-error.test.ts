// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import PageError from "@/app/(member)/error";

import { renderInLocale } from "../../support/render-ui";

afterEach(cleanup);

describe("app/(member)/error: a member page that failed to render", () => {
  it.each([
    { locale: "en" as const, heading: "Something went wrong on our side. Please try again.", retry: "Retry" },
    { locale: "zh-TW" as const, heading: "我們這邊出了點問題，請再試一次。", retry: "重試" },
  ])("says so in $locale with Retry, never the error's own text", ({ locale, heading, retry }) => {
    const reset = vi.fn();
    const error = new Error("secret stack detail at lib/site/transport.ts:12");
    renderInLocale(createElement(PageError, { error, reset }), locale);
    const alert = screen.getByRole("alert");
    expect(within(alert).getByRole("heading", { level: 1, name: heading })).toBeDefined();
    fireEvent.click(within(alert).getByRole("button", { name: retry }));
    expect(reset).toHaveBeenCalledOnce();
    expect(document.body.textContent).not.toContain("secret stack detail");
  });
});
