// @vitest-environment happy-dom
import { cleanup, render } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";

import { TextKeptTogether } from "@/components/ui/text-kept-together";

afterEach(cleanup);

/** The text as rendered, with each piece kept together in brackets. */
function keptIn(text: string, pieces: readonly string[]): string {
  const { container } = render(createElement("p", null, createElement(TextKeptTogether, { text, pieces })));
  return [...container.querySelector("p")!.childNodes]
    .map((node) => (node instanceof HTMLSpanElement ? `[${node.textContent}]` : (node.textContent ?? "")))
    .join("");
}

describe("TextKeptTogether", () => {
  it("keeps each piece in a span of its own, with the punctuation touching it", () => {
    // A browser breaks beside an inline block where it would not beside letters: "(" left alone at a line's end.
    expect(keptIn("Access until Jan 16, 2027 (in 6 weeks)", ["Jan 16, 2027", "in 6 weeks"])).toBe(
      "Access until [Jan 16, 2027] [(in 6 weeks)]",
    );
    expect(keptIn("可觀看至2027年1月16日（6週後）", ["2027年1月16日", "6週後"])).toBe("可觀看至[2027年1月16日][（6週後）]");
  });

  it("reads a piece as text, not as a pattern", () => {
    expect(keptIn("Costs $1.50 (or 1+50) today", ["$1.50", "1+50"])).toBe("Costs [$1.50] (or [1+50)] today");
    expect(keptIn("a.b and a*b", ["a*b"])).toBe("a.b and [a*b]");
  });

  it("leaves the text as it is without pieces, or with pieces it does not hold", () => {
    expect(keptIn("Lifetime access", [])).toBe("Lifetime access");
    expect(keptIn("Lifetime access", [""])).toBe("Lifetime access");
    expect(keptIn("Lifetime access", ["Dec 1"])).toBe("Lifetime access");
  });
});
