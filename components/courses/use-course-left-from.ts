"use client";

import { useCallback, useEffect, useRef, type MouseEvent } from "react";

import { linkOfPlainClick } from "@/lib/client/plain-link-click";

/** The key of the history entry's state that names the course whose link left the list. */
const LEFT_FROM_KEY = "courseLeftFrom";

/** The attribute of a course's list item that names it: `data-course="<slug>"`. */
export const COURSE_ITEM_ATTRIBUTE = "data-course";

/** The history entry's state as an object to copy: the router's own, or none. */
function entryState(): Record<string, unknown> {
  const state: unknown = window.history.state;
  return state !== null && typeof state === "object" ? (state as Record<string, unknown>) : {};
}

function courseLeftFrom(): string | null {
  const slug = entryState()[LEFT_FROM_KEY];
  return typeof slug === "string" ? slug : null;
}

/** Notes the course in the history entry's state, or (null) takes the note away; the router's own state stays. */
function noteCourseLeftFrom(slug: string | null): void {
  const kept = Object.fromEntries(Object.entries(entryState()).filter(([key]) => key !== LEFT_FROM_KEY));
  window.history.replaceState(slug === null ? kept : { ...kept, [LEFT_FROM_KEY]: slug }, "");
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
 * router's own state kept beside it); on that entry again (Back, Forward), once the list is shown, the
 * course's item is scrolled into view if the browser left it out of view, and the note is taken away (a
 * reload after the member scrolled on keeps where they are). Any other change of the list's URL (a
 * choice, Show more) replaces the state without it. Returns the list's click handler.
 */
export function useCourseLeftFrom(listShown: boolean): (event: MouseEvent<HTMLElement>) => void {
  const settled = useRef(false);
  useEffect(() => {
    // Once, when the list is first shown (at once with the server's data, or once it arrives).
    if (settled.current || !listShown) return;
    settled.current = true;
    const slug = courseLeftFrom();
    if (slug === null) return;
    // Used once: a reload after the member scrolled on is the browser's to restore.
    noteCourseLeftFrom(null);
    const item = document.querySelector(`[${COURSE_ITEM_ATTRIBUTE}="${CSS.escape(slug)}"]`);
    if (item && !isInViewport(item)) item.scrollIntoView({ block: "center" });
  }, [listShown]);

  return useCallback((event: MouseEvent<HTMLElement>) => {
    const link = linkOfPlainClick(event, { topToo: true });
    if (!link || new URL(link.href).origin === window.location.origin) return;
    const slug = link.closest(`[${COURSE_ITEM_ATTRIBUTE}]`)?.getAttribute(COURSE_ITEM_ATTRIBUTE);
    if (slug) noteCourseLeftFrom(slug);
  }, []);
}
