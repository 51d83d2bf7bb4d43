"use client";

import { useCallback, useEffect, useRef, type MouseEvent } from "react";

import { linkOfPlainClick } from "@/lib/client/plain-link-click";

/** The key of the history entry's state that names the course whose link left the list. */
const LEFT_FROM_KEY = "courseLeftFrom";

/** The attribute of a course's list item that names it: `data-course="<slug>"`. */
export const COURSE_ITEM_ATTRIBUTE = "data-course";

function courseLeftFrom(): string | null {
  const state: unknown = window.history.state;
  const slug = state !== null && typeof state === "object" ? (state as Record<string, unknown>)[LEFT_FROM_KEY] : undefined;
  return typeof slug === "string" ? slug : null;
}

function isInViewport(element: Element): boolean {
  const box = element.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

/**
 * Back from a lecture on the site finds the course the member left from in view. The browser's scroll
 * restoration does it when it can, but it is not always there to do it: a phone that discarded the tab, a
 * browser that restored an offset saved before the last scroll, or a list whose order changed since (the
 * course just watched moves up under "Recently watched"). So a plain click on a link out of the dashboard
 * from a course's item (Resume, Start, Renew…) writes that course in the history entry's state (the
 * router's own state kept beside it); on that entry again (Back, Forward, a reload), once the list is
 * shown, the course's item is scrolled into view if the browser left it out of view. Any other change of the list's
 * URL (a choice, Show more) replaces the state without it. Returns the list's click handler.
 */
export function useCourseLeftFrom(listShown: boolean): (event: MouseEvent<HTMLElement>) => void {
  const settled = useRef(false);
  useEffect(() => {
    // Once, when the list is first shown (at once with the server's data, or once it arrives).
    if (settled.current || !listShown) return;
    settled.current = true;
    const slug = courseLeftFrom();
    const item = slug === null ? null : document.querySelector(`[${COURSE_ITEM_ATTRIBUTE}="${CSS.escape(slug)}"]`);
    if (item && !isInViewport(item)) item.scrollIntoView({ block: "center" });
  }, [listShown]);

  return useCallback((event: MouseEvent<HTMLElement>) => {
    const link = linkOfPlainClick(event, { topToo: true });
    if (!link || new URL(link.href).origin === window.location.origin) return;
    const slug = link.closest(`[${COURSE_ITEM_ATTRIBUTE}]`)?.getAttribute(COURSE_ITEM_ATTRIBUTE);
    if (!slug) return;
    const state: unknown = window.history.state;
    window.history.replaceState({ ...(state !== null && typeof state === "object" ? state : {}), [LEFT_FROM_KEY]: slug }, "");
  }, []);
}
