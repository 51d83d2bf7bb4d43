"use client";

import { useCallback, useMemo, useState } from "react";

import { usePageUrl } from "@/components/layout/offline-navigation";
import { parseShownPages } from "@/lib/contract/shown-pages";
import {
  COURSE_CARDS_STEP,
  courseChoiceQuery,
  courseListQuery,
  parseCourseChoice,
  parseShownCount,
  type CourseChoice,
} from "@/lib/format/course-filter";

/**
 * The Courses page's choice (Show, Sort, "Find a course"), derived from the URL's search params: a change
 * replaces the history entry (typing or arrowing through the choices does not fill the history), and
 * back, forward, reload and shared links keep it. The router applies a replaced URL a moment later, so
 * the choice just made is shown until the URL has it (and forgotten whenever the URL changes). On a page
 * opened offline, the URL is that of the link that opened it (usePageUrl). A new choice starts again at
 * one step of courses, and keeps how many loads of enrollments the URL holds (`pages`).
 */
export function useCourseChoice(): [CourseChoice, (next: CourseChoice) => void] {
  const { searchParams, replaceQuery } = usePageUrl();
  const fromUrl = useMemo(() => parseCourseChoice(searchParams), [searchParams]);
  const pages = parseShownPages(searchParams);
  const write = useCallback((next: CourseChoice) => replaceQuery(courseListQuery(next, COURSE_CARDS_STEP, pages)), [pages, replaceQuery]);
  return useKeptInUrl(fromUrl, courseChoiceQuery(fromUrl), write);
}

/**
 * How many of `choice`'s courses the list shows, kept in the URL beside the choice (`?shown=72`; "Show more"
 * replaces the history entry), with how many loads of enrollments were read for it (`&pages=2`, past the
 * first 500): Back from a lecture on the site, and a reload, render the list as long as it was, so the
 * browser's scroll restoration brings the same course back into view. The count belongs to the choice the
 * URL holds: another choice (chosen, or not yet in the URL) starts at one step, and choosing one drops it
 * from the URL (useCourseChoice). Like the choice, the count just set is shown until the URL has it.
 */
export function useShownCount(choice: CourseChoice): [number, (shown: number, pages: number) => void] {
  const { searchParams, replaceQuery } = usePageUrl();
  const urlChoiceKey = courseChoiceQuery(parseCourseChoice(searchParams));
  const fromUrl = urlChoiceKey === courseChoiceQuery(choice) ? parseShownCount(searchParams) : COURSE_CARDS_STEP;
  const write = useCallback((shown: number, pages: number) => replaceQuery(courseListQuery(choice, shown, pages)), [choice, replaceQuery]);
  return useKeptInUrl(fromUrl, `${urlChoiceKey}#${parseShownCount(searchParams)}`, write);
}

/**
 * A value kept in the URL, which `write` replaces: the router applies a replaced URL a moment later, so
 * the value just set is shown until then, and forgotten whenever the URL (`urlKey`) changes.
 */
function useKeptInUrl<T, Rest extends unknown[]>(
  fromUrl: T,
  urlKey: string,
  write: (value: T, ...rest: Rest) => void,
): [T, (value: T, ...rest: Rest) => void] {
  const [pending, setPending] = useState<{ value: T } | null>(null);
  const [seenUrlKey, setSeenUrlKey] = useState(urlKey);
  if (urlKey !== seenUrlKey) {
    setSeenUrlKey(urlKey);
    setPending(null);
  }
  const set = useCallback(
    (value: T, ...rest: Rest) => {
      setPending({ value });
      write(value, ...rest);
    },
    [write],
  );
  return [pending ? pending.value : fromUrl, set];
}
