"use client";

import { useCallback, useMemo, useState } from "react";

import { usePageUrl } from "@/components/layout/offline-navigation";
import { courseChoiceQuery, parseCourseChoice, type CourseChoice } from "@/lib/format/course-filter";

/**
 * The Courses page's choice (Show, Sort, "Find a course"), derived from the URL's search params: a change
 * replaces the history entry (typing or arrowing through the choices does not fill the history), and
 * back, forward, reload and shared links keep it. The router applies a replaced URL a moment later, so
 * the choice just made is shown until the URL has it (and forgotten whenever the URL changes). On a page
 * opened offline, the URL is that of the link that opened it (usePageUrl).
 */
export function useCourseChoice(): [CourseChoice, (next: CourseChoice) => void] {
  const { searchParams, replaceQuery } = usePageUrl();
  const fromUrl = useMemo(() => parseCourseChoice(searchParams), [searchParams]);
  const urlKey = courseChoiceQuery(fromUrl);
  const [pending, setPending] = useState<CourseChoice | null>(null);
  const [seenUrlKey, setSeenUrlKey] = useState(urlKey);
  if (urlKey !== seenUrlKey) {
    setSeenUrlKey(urlKey);
    setPending(null);
  }
  const choose = useCallback(
    (next: CourseChoice) => {
      setPending(next);
      replaceQuery(courseChoiceQuery(next));
    },
    [replaceQuery],
  );
  return [pending ?? fromUrl, choose];
}
