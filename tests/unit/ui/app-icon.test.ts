// @vitest-environment happy-dom
import { readFileSync } from "node:fs";
import path from "node:path";

import { render } from "@testing-library/react";
import { createElement } from "react";
import { describe, expect, it } from "vitest";

import { AppIcon } from "@/components/layout/app-icon";

/** Each shape of an SVG: its element name and geometry, colours aside. */
function shapesOf(svg: Element): string[] {
  const geometry = ["d", "x", "y", "width", "height", "rx"];
  return [...svg.children].map(
    (shape) => `${shape.tagName.toLowerCase()} ${geometry.map((name) => `${name}=${shape.getAttribute(name) ?? ""}`).join(" ")}`,
  );
}

describe("the header's icon", () => {
  it("draws the shapes of public/icon.svg, hidden from screen readers (the link beside it names the app)", () => {
    const file = new DOMParser().parseFromString(readFileSync(path.join(process.cwd(), "public/icon.svg"), "utf8"), "image/svg+xml");
    const { container } = render(createElement(AppIcon, { className: "size-6" }));
    const inline = container.querySelector("svg")!;
    expect(inline.getAttribute("aria-hidden")).toBe("true");
    expect(inline.getAttribute("viewBox")).toBe(file.documentElement.getAttribute("viewBox"));
    expect(shapesOf(inline)).toEqual(shapesOf(file.documentElement));
    expect(shapesOf(inline)).toHaveLength(4);
  });
});
