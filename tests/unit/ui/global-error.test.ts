// @vitest-environment happy-dom
import { within } from "@testing-library/react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import GlobalError from "@/app/global-error";

describe("app/global-error", () => {
  it("is the dashboard's own page with Try again and a way back, never Next's default or the error's text", () => {
    const error = Object.assign(new Error("secret stack detail at lib/auth/tokens.ts:42"), { digest: "123" });
    // Its own <html> document, as Next.js sends it when the root layout fails: read as a browser reads it.
    const page = new DOMParser().parseFromString(
      renderToStaticMarkup(createElement(GlobalError, { error, reset: () => undefined })),
      "text/html",
    );
    expect(page.documentElement.lang).toBe("en");
    const body = within(page.body);
    expect(within(body.getByRole("alert")).getByRole("heading", { level: 1, name: /Something went wrong/ })).toBeDefined();
    expect(page.body.textContent).toContain("Member dashboard");
    expect(body.getByRole("button", { name: "Try again" })).toBeDefined();
    expect(body.getAllByRole("link").map((link) => link.getAttribute("href"))).toContain("/");
    expect(page.body.textContent).not.toContain("secret stack detail");
    expect(page.body.textContent).not.toContain("Application error");
  });
});
