// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";

import { ServiceUnavailable } from "@/components/ui/service-unavailable";

afterEach(cleanup);

describe("ServiceUnavailable", () => {
  it.each([
    ["en", "The service is temporarily unavailable", "Retry"],
    ["zh-TW", "服務暫時無法使用", "重試"],
  ] as const)("in %s: an alert whose heading says so, with a Retry link to the same page", (locale, heading, retry) => {
    render(createElement(ServiceUnavailable, { retryPath: "/courses", locale }));
    expect(within(screen.getByRole("alert")).getByRole("heading", { level: 1, name: heading })).toBeDefined();
    expect(screen.getByRole("link", { name: retry }).getAttribute("href")).toBe("/courses");
  });
});
