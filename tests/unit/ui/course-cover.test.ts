// @vitest-environment happy-dom
/**
 * A course's cover that does not load (gone from the site's image host, the host down, not an image) gives
 * way to the plain cover of a course without one, never the browser's broken-image mark: when its `error`
 * event comes after the page is interactive, and when it failed before (the event fired with no one
 * listening; `decode()` of the finished image rejects).
 */
import { act, cleanup, fireEvent, render } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { CourseCard } from "@/components/courses/course-card";
import { CourseCover } from "@/components/courses/course-cover";
import type { CourseEnrollment } from "@/lib/types/account";

import { WATERCOLOUR_COURSE } from "../../support/course-fixture";
import { renderInLocale } from "../../support/render-ui";

const COVER = "https://cdn.school.example.com/covers/watercolour-101.jpg";
const withCover: CourseEnrollment = { ...WATERCOLOUR_COURSE, imageUrl: COVER };

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderCard(course: CourseEnrollment) {
  const view = renderInLocale(createElement(CourseCard, { course }));
  return {
    ...view,
    image: () => view.container.querySelector("article img"),
    plainCover: () => view.container.querySelector("article > div[aria-hidden='true']:first-child"),
  };
}

/** Finished images, as the browser has them when the card mounts: `decode()` answers whether they can be shown. */
function imagesFinished(decoded: boolean) {
  vi.spyOn(HTMLImageElement.prototype, "complete", "get").mockReturnValue(true);
  const broken = () => Promise.reject(new DOMException("The source image cannot be decoded.", "EncodingError"));
  return vi.spyOn(HTMLImageElement.prototype, "decode").mockImplementation(() => (decoded ? Promise.resolve() : broken()));
}

describe("CourseCover", () => {
  it("shows the site's cover, decorative, and a course without one the plain cover", () => {
    const card = renderCard(withCover);
    expect(card.image()?.getAttribute("src")).toBe(COVER);
    expect(card.image()?.getAttribute("alt")).toBe("");
    expect(card.plainCover()).toBeNull();
    cleanup();
    const bare = renderCard(WATERCOLOUR_COURSE);
    expect(bare.image()).toBeNull();
    expect(bare.plainCover()).not.toBeNull();
  });

  it("gives way to the plain cover when the cover fails to load while the page is interactive", () => {
    const card = renderCard(withCover);
    fireEvent.error(card.image()!);
    expect(card.image()).toBeNull();
    expect(card.plainCover()?.className).toContain("aspect-[16/9]");
  });

  it("gives way to the plain cover when the cover had already failed as the card mounted", async () => {
    const decode = imagesFinished(false);
    const card = renderCard(withCover);
    await act(async () => {
      await Promise.resolve();
    });
    expect(decode).toHaveBeenCalledTimes(1);
    expect(card.image()).toBeNull();
    expect(card.plainCover()).not.toBeNull();
  });

  it("keeps a cover that had loaded as the card mounted, and asks nothing of one still loading", async () => {
    const decode = imagesFinished(true);
    const card = renderCard(withCover);
    await act(async () => {
      await Promise.resolve();
    });
    expect(decode).toHaveBeenCalledTimes(1);
    expect(card.image()?.getAttribute("src")).toBe(COVER);
    cleanup();
    vi.restoreAllMocks();
    vi.spyOn(HTMLImageElement.prototype, "complete", "get").mockReturnValue(false);
    const loading = vi.spyOn(HTMLImageElement.prototype, "decode");
    const later = renderCard(withCover);
    expect(loading).not.toHaveBeenCalled();
    expect(later.image()?.getAttribute("src")).toBe(COVER);
  });

  it("tries a new cover after the old one failed", () => {
    const cover = render(createElement(CourseCover, { src: COVER, className: "" }));
    fireEvent.error(cover.container.querySelector("img")!);
    expect(cover.container.querySelector("img")).toBeNull();
    const newCover = "https://cdn.school.example.com/covers/watercolour-101-v2.jpg";
    cover.rerender(createElement(CourseCover, { src: newCover, className: "" }));
    expect(cover.container.querySelector("img")?.getAttribute("src")).toBe(newCover);
  });
});
