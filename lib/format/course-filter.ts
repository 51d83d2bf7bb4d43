import type { CourseEnrollment } from "@/lib/types/account";
import { hasAccessEnded, isAccessEndingSoon } from "./access";
import { toDate } from "./datetime";

/** The Courses page's "Show" choices, as they appear in the URL (`?show=ending-soon`). */
export const COURSE_SHOWS = ["all", "in-progress", "not-started", "ending-soon", "ended", "lifetime"] as const;
export type CourseShow = (typeof COURSE_SHOWS)[number];

/** The Courses page's sort orders, as they appear in the URL (`?sort=expiry`). */
export const COURSE_SORTS = ["recent", "expiry", "name"] as const;
export type CourseSort = (typeof COURSE_SORTS)[number];

export interface CourseChoice {
  show: CourseShow;
  sort: CourseSort;
}

export const DEFAULT_COURSE_CHOICE: CourseChoice = { show: "all", sort: "recent" };

/** What a URL's query string can hand us: URLSearchParams, or Next's `searchParams` object. */
export type QueryValues = URLSearchParams | Readonly<Record<string, string | string[] | undefined>>;

function firstValue(query: QueryValues, name: string): string | undefined {
  if (query instanceof URLSearchParams) return query.get(name) ?? undefined;
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

function isOneOf<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (list as readonly string[]).includes(value);
}

/** The choice a URL holds; anything unknown falls back to the default ("All", "Recently watched"). */
export function parseCourseChoice(query: QueryValues): CourseChoice {
  const show = firstValue(query, "show");
  const sort = firstValue(query, "sort");
  return {
    show: isOneOf(COURSE_SHOWS, show) ? show : DEFAULT_COURSE_CHOICE.show,
    sort: isOneOf(COURSE_SORTS, sort) ? sort : DEFAULT_COURSE_CHOICE.sort,
  };
}

/** The query string for a choice, without the defaults: "" for All + Recently watched, else "?show=…&sort=…". */
export function courseChoiceQuery(choice: CourseChoice): string {
  const params = new URLSearchParams();
  if (choice.show !== DEFAULT_COURSE_CHOICE.show) params.set("show", choice.show);
  if (choice.sort !== DEFAULT_COURSE_CHOICE.sort) params.set("sort", choice.sort);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Whether a course belongs to a "Show" choice at `now`. Ending soon: access ends within 30 days. */
export function matchesShow(course: CourseEnrollment, show: CourseShow, now: Date): boolean {
  const ended = hasAccessEnded(course.access, now);
  switch (show) {
    case "all":
      return true;
    case "in-progress":
      return !ended && course.lastWatched !== null && course.completionPercentage !== 100;
    case "not-started":
      return !ended && course.lastWatched === null;
    case "ending-soon":
      return isAccessEndingSoon(course.access, now);
    case "ended":
      return ended;
    case "lifetime":
      return course.access.kind === "lifetime";
  }
}

/** How many courses each "Show" choice holds. */
export function countCoursesByShow(courses: readonly CourseEnrollment[], now: Date): Record<CourseShow, number> {
  const counts = Object.fromEntries(COURSE_SHOWS.map((show) => [show, 0])) as Record<CourseShow, number>;
  for (const course of courses) {
    for (const show of COURSE_SHOWS) if (matchesShow(course, show, now)) counts[show] += 1;
  }
  return counts;
}

function watchedAtMs(course: CourseEnrollment): number {
  const watchedAt = course.lastWatched?.watchedAt;
  const ms = watchedAt ? toDate(watchedAt).getTime() : Number.NaN;
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/**
 * Rank for "Access ends soonest": courses still running by expiry (soonest first), then lifetime access,
 * then ended courses (most recently ended first).
 */
function expiryRank(course: CourseEnrollment, now: Date): [number, number] {
  if (course.access.kind === "lifetime") return [1, 0];
  const expiry = toDate(course.access.expiresAt).getTime();
  return hasAccessEnded(course.access, now) ? [2, -expiry] : [0, expiry];
}

/**
 * The courses of a choice, in its order. Recently watched: last watched first, never-watched after;
 * Access ends soonest: see {@link expiryRank}; Name: alphabetical in the member's language. Ties keep
 * name order, then slug, so the order never depends on how the site paged.
 */
export function selectCourses(courses: readonly CourseEnrollment[], choice: CourseChoice, now: Date, locale: string): CourseEnrollment[] {
  const collator = new Intl.Collator(locale, { sensitivity: "base", numeric: true });
  const byName = (a: CourseEnrollment, b: CourseEnrollment) =>
    collator.compare(a.name, b.name) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
  const compare = (a: CourseEnrollment, b: CourseEnrollment): number => {
    switch (choice.sort) {
      case "recent":
        return watchedAtMs(b) - watchedAtMs(a) || byName(a, b);
      case "expiry": {
        const [groupA, keyA] = expiryRank(a, now);
        const [groupB, keyB] = expiryRank(b, now);
        return groupA - groupB || keyA - keyB || byName(a, b);
      }
      case "name":
        return byName(a, b);
    }
  };
  return courses.filter((course) => matchesShow(course, choice.show, now)).sort(compare);
}
