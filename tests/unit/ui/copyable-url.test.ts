// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { CopyableUrl } from "@/components/settings/connections-panel";
import { urlPieces } from "@/lib/format/url-lines";
import type { Locale } from "@/lib/i18n/locales";

import { renderInLocale } from "../../support/render-ui";

const LONG_URL = "https://learn.northwind-academy-of-fine-arts.example.com:8443/api/v2/mcp?tenant=north&lang=zh-TW#tools";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("urlPieces", () => {
  it("cuts after the scheme's //, after / and ., and before : ? & = #, and never inside a label, the port or a segment", () => {
    expect(urlPieces("http://127.0.0.1:4600/mcp")).toEqual(["http://", "127.", "0.", "0.", "1", ":4600/", "mcp"]);
    expect(urlPieces(LONG_URL)).toEqual([
      "https://",
      "learn.",
      "northwind-academy-of-fine-arts.",
      "example.",
      "com",
      ":8443/",
      "api/",
      "v2/",
      "mcp",
      "?tenant",
      "=north",
      "&lang",
      "=zh-TW",
      "#tools",
    ]);
    expect(urlPieces("https://school.example.com/a//b/")).toEqual(["https://", "school.", "example.", "com/", "a//", "b/"]);
  });

  it("gives back the URL when joined, whatever it is", () => {
    for (const url of [LONG_URL, "http://127.0.0.1:4600/mcp", "/mcp", "mcp", "", "https://", "a.b/c?d=e&f#g"]) {
      expect(urlPieces(url).join("")).toBe(url);
    }
  });
});

/** The address as the box shows it: its pieces between <wbr>s, the selected text in brackets. */
function shown(field: HTMLElement): string {
  const copy = field.previousElementSibling as HTMLElement;
  expect(copy.getAttribute("aria-hidden")).toBe("true");
  const read = (node: Node): string =>
    node.nodeName === "WBR"
      ? "|"
      : node.nodeName === "MARK"
        ? `[${node.textContent}]`
        : node.nodeType === Node.TEXT_NODE
          ? (node.textContent ?? "")
          : [...node.childNodes].map(read).join("");
  return read(copy);
}

function render(url: string, locale: Locale = "en") {
  renderInLocale(createElement(CopyableUrl, { url }), locale);
  return screen.getByRole<HTMLTextAreaElement>("textbox", { name: locale === "en" ? "MCP URL" : "MCP 網址" });
}

/** A browser whose clipboard refuses, on a device whose main pointer is `pointer`. */
function refusingClipboard(pointer: "fine" | "coarse") {
  vi.stubGlobal("matchMedia", (query: string) => ({ matches: query === `(pointer: ${pointer})`, media: query }));
  Object.defineProperty(navigator, "clipboard", {
    configurable: true,
    value: { writeText: () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError")) },
  });
}

describe("CopyableUrl", () => {
  it("holds exactly the URL in its field, and shows it with a break allowed only between the URL's pieces", () => {
    const field = render(LONG_URL);
    expect(field.value).toBe(LONG_URL);
    expect(field.readOnly).toBe(true);
    expect(shown(field)).toBe(urlPieces(LONG_URL).join("|"));
  });

  it("draws the field's selection on the address it shows, and none once the field loses focus", () => {
    const field = render("http://127.0.0.1:4600/mcp");
    act(() => field.focus());
    expect(shown(field)).toBe("[http://]|[127.]|[0.]|[0.]|[1]|[:4600/]|[mcp]");
    act(() => {
      field.setSelectionRange(9, 19);
      fireEvent.select(field);
    });
    expect(shown(field)).toBe("http://|12[7.]|[0.]|[0.]|[1]|[:46]00/|mcp");
    act(() => field.blur());
    expect(shown(field)).toBe("http://|127.|0.|0.|1|:4600/|mcp");
  });

  it.each([
    ["en", "fine", "Your browser did not allow copying. The address is selected: press Ctrl+C (⌘C on a Mac)."],
    [
      "en",
      "coarse",
      "Your browser did not allow copying. The address is selected: choose Copy in the menu that appears. " +
        "If no menu appears, touch and hold the address, then choose Copy.",
    ],
    ["zh-TW", "fine", "你的瀏覽器不允許複製。網址已選取，請按 Ctrl+C（Mac 請按 ⌘C）複製。"],
    [
      "zh-TW",
      "coarse",
      "你的瀏覽器不允許複製。網址已選取，請在出現的選單中點選「複製」（iPhone 為「拷貝」）；沒有看到選單時，請長按網址。",
    ],
  ] as const)(
    "in %s with a %s pointer, says how to copy the address it selected when the clipboard refuses",
    async (locale, pointer, words) => {
      refusingClipboard(pointer);
      const field = render(LONG_URL, locale);
      fireEvent.click(screen.getByRole("button", { name: locale === "en" ? "Copy MCP URL" : "複製 MCP 網址" }));
      await waitFor(() => expect(screen.getByRole("status").textContent).toBe(words));
      expect(document.activeElement).toBe(field);
      expect(field.value.slice(field.selectionStart, field.selectionEnd)).toBe(LONG_URL);
    },
  );
});
