// @vitest-environment happy-dom
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

import { cleanup, render, screen, within } from "@testing-library/react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";

import GlobalError from "@/app/global-error";
import { CrashPage } from "@/components/layout/crash-page";
import { LOCALE_COOKIE } from "@/lib/i18n/locales";

afterEach(() => {
  cleanup();
  document.cookie = `${LOCALE_COOKIE}=; Max-Age=0; Path=/`;
});

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

  it("speaks the member's language in the browser: the locale cookie, as the language switch leaves it", () => {
    document.cookie = `${LOCALE_COOKIE}=zh-TW; Path=/`;
    render(createElement(CrashPage, { onRetry: () => undefined }));
    expect(screen.getByRole("main").getAttribute("lang")).toBe("zh-TW");
    expect(within(screen.getByRole("alert")).getByRole("heading", { level: 1, name: "發生錯誤" })).toBeDefined();
    expect(screen.getByRole("button", { name: "再試一次" })).toBeDefined();
    expect(screen.getByRole("link", { name: "回到儀表板" }).getAttribute("href")).toBe("/");
  });

  it("leaves the dictionaries out of its modules: its scripts load on every route, in a chunk of their own", () => {
    // With no app-wide layout, Turbopack gives the root error boundary its own chunk, with its own copy of
    // every module it imports (vercel/next.js#89192): the dictionaries there were a second copy of both
    // languages in every page's first-load JavaScript (issue 26's size target).
    const reached = importedFiles("app/global-error.tsx");
    expect(reached).toContain("components/layout/crash-page.tsx");
    expect(reached).toContain("lib/i18n/messages/crash.ts");
    expect(reached.filter((file) => /^lib\/i18n\/(index\.ts|messages\/(en|zh-TW)\.ts)$/.test(file))).toEqual([]);
  });
});

/** The project's files a module reaches through its static imports (`@/` and relative ones), itself included. */
function importedFiles(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    for (const [, specifier] of source.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gms)) {
      if (!specifier) continue;
      const base = specifier.startsWith("@/")
        ? specifier.slice(2)
        : specifier.startsWith(".")
          ? path.join(path.dirname(file), specifier)
          : null;
      const found =
        base === null ? undefined : [".ts", ".tsx", "/index.ts"].map((ending) => base + ending).find((candidate) => existsSync(candidate));
      if (found) visit(found);
    }
  };
  visit(entry);
  return [...seen];
}
