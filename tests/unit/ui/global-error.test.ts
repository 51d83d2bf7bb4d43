import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import GlobalError from "@/app/global-error";

describe("app/global-error", () => {
  it("is the dashboard's own page with Try again and a way back, never Next's default or the error's text", () => {
    const error = Object.assign(new Error("secret stack detail at lib/auth/tokens.ts:42"), { digest: "123" });
    const html = renderToStaticMarkup(createElement(GlobalError, { error, reset: () => undefined }));
    expect(html).toMatch(/^<html lang="en">(<head><\/head>)?<body>/);
    expect(html).toContain('role="alert"');
    expect(html).toContain("<h1");
    expect(html).toContain("Something went wrong");
    expect(html).toContain("Member dashboard");
    expect(html).toMatch(/<button type="button" class="btn btn-primary">Try again<\/button>/);
    expect(html).toContain('href="/"');
    expect(html).not.toContain("secret stack detail");
    expect(html).not.toContain("Application error");
  });
});
