"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";

import { courseChoiceQuery, parseCourseChoice, type CourseChoice } from "@/lib/format/course-filter";

/**
 * The Courses page's choice (Show, Sort, "Find a course"), derived from the URL's search params and
 * nothing else: a change replaces the history entry (typing or arrowing through the choices does not
 * fill the history), and back, forward, reload and shared links keep it.
 */
export function useCourseChoice(): [CourseChoice, (next: CourseChoice) => void] {
  const searchParams = useSearchParams();
  const choice = useMemo(() => parseCourseChoice(searchParams), [searchParams]);
  const choose = useCallback((next: CourseChoice) => {
    window.history.replaceState(null, "", `${window.location.pathname}${courseChoiceQuery(next)}${window.location.hash}`);
  }, []);
  return [choice, choose];
}
