import { countInQuery, firstValue, type QueryValues } from "@/lib/contract/query-values";
import { SHOWN_PAGES_PARAM } from "@/lib/contract/shown-pages";
import type { CourseEnrollment } from "@/lib/types/account";
import { hasAccessEnded, isAccessEndingSoon } from "./access";
import { toDate } from "./datetime";
import { collator as sharedCollator } from "./intl-formatters";

/** The Courses page's "Show" choices, as they appear in the URL (`?show=ending-soon`). */
export const COURSE_SHOWS = ["all", "in-progress", "not-started", "ending-soon", "ended", "lifetime"] as const;
export type CourseShow = (typeof COURSE_SHOWS)[number];

/** The Courses page's sort orders, as they appear in the URL (`?sort=expiry`). */
export const COURSE_SORTS = ["recent", "expiry", "name"] as const;
export type CourseSort = (typeof COURSE_SORTS)[number];

export interface CourseChoice {
  show: CourseShow;
  sort: CourseSort;
  /** The "Find a course" text, as typed (`?q=`); "" when not searching. */
  q: string;
}

export const DEFAULT_COURSE_CHOICE: CourseChoice = { show: "all", sort: "recent", q: "" };

/** The longest search text kept (a course name is shorter; a longer `q` in a URL is cut). */
export const MAX_SEARCH_LENGTH = 100;

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
    q: (firstValue(query, "q") ?? "").slice(0, MAX_SEARCH_LENGTH),
  };
}

/** The query string for a choice, without the defaults: "" for All + Recently watched, else "?show=…&sort=…". */
export function courseChoiceQuery(choice: CourseChoice): string {
  const params = new URLSearchParams();
  if (choice.show !== DEFAULT_COURSE_CHOICE.show) params.set("show", choice.show);
  if (choice.sort !== DEFAULT_COURSE_CHOICE.sort) params.set("sort", choice.sort);
  if (choice.q.trim() !== "") params.set("q", choice.q);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Courses listed at first, and added by each "Show more". */
export const COURSE_CARDS_STEP = 24;

/** The most courses a URL's `shown` can ask for (a larger number is cut to it). */
export const MAX_SHOWN_COURSES = 10_000;

/**
 * How many courses a URL's `shown` asks the list to show (`?shown=72`, left by "Show more"): a whole
 * number from one step to {@link MAX_SHOWN_COURSES}; one step when it is missing or not a number.
 */
export function parseShownCount(query: QueryValues): number {
  return countInQuery(query, "shown", COURSE_CARDS_STEP, MAX_SHOWN_COURSES);
}

/**
 * The query string for a choice listing `shown` courses out of `pages` loads of enrollments (lib/contract/shown-pages.ts:
 * past the first load, "Show more" reads the next): the choice's own (courseChoiceQuery), then `shown` when
 * past one step, then `pages` when past the first, so the server renders as many courses, and reads as many
 * loads, as the list had.
 */
export function courseListQuery(choice: CourseChoice, shown: number, pages = 1): string {
  const params = new URLSearchParams(courseChoiceQuery(choice));
  if (shown > COURSE_CARDS_STEP) params.set("shown", String(Math.min(Math.floor(shown), MAX_SHOWN_COURSES)));
  if (pages > 1) params.set(SHOWN_PAGES_PARAM, String(Math.floor(pages)));
  const query = params.toString();
  return query ? `?${query}` : "";
}

/**
 * A text as search compares it: compatibility-decomposed (full-width Ｊａｖａ and half-width Java, ligatures),
 * accents dropped (é → e, ü → u), lower case, spaces collapsed. Chinese, Japanese and Korean text is
 * recomposed as it was: a kana's voicing mark is not an accent (ガ stays ガ, not カ).
 */
export function normalizeForSearch(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether a course's name holds every word of the search text, in any order ("" matches every course). */
export function matchesSearch(course: CourseEnrollment, q: string): boolean {
  const words = normalizeForSearch(q).split(" ").filter(Boolean);
  if (words.length === 0) return true;
  const name = normalizeForSearch(course.name);
  return words.every((word) => name.includes(word));
}

/** Whether a course belongs to a "Show" choice at `now`. Ending soon: access ends within 30 days. */
export function matchesShow(course: CourseEnrollment, show: CourseShow, now: Date): boolean {
  const ended = hasAccessEnded(course.access, now);
  switch (show) {
    case "all":
      return true;
    case "in-progress":
      return !ended && startedness(course) === "started" && course.completionPercentage !== 100;
    case "not-started":
      return !ended && startedness(course) === "not started";
    case "ending-soon":
      return isAccessEndingSoon(course.access, now);
    case "ended":
      return ended;
    case "lifetime":
      return course.access.kind === "lifetime";
  }
}

/**
 * Whether the member has started a course: by the lecture last watched; where the site failed to say
 * (`lastWatchedUnknown`, never at 0 %), by the progress it gave, and "unknown" without one (the course is
 * then under neither In progress nor Not started).
 */
function startedness(course: CourseEnrollment): "started" | "not started" | "unknown" {
  if (course.lastWatched) return "started";
  if (!course.lastWatchedUnknown) return "not started";
  return course.completionPercentage === null ? "unknown" : "started";
}

/** How many courses each "Show" choice holds (among those matching the search text `q`, when given). */
export function countCoursesByShow(courses: readonly CourseEnrollment[], now: Date, q = ""): Record<CourseShow, number> {
  const counts = Object.fromEntries(COURSE_SHOWS.map((show) => [show, 0])) as Record<CourseShow, number>;
  for (const course of courses) {
    if (!matchesSearch(course, q)) continue;
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
 * The courses of a choice (its Show and its search text), in its order. Recently watched: courses with
 * access first, last watched first, never-watched after, then the ended ones (same order among them);
 * Access ends soonest: see {@link expiryRank}; Name: alphabetical in the member's language. Ties keep
 * name order, then slug, so the order never depends on how the site paged.
 */
export function selectCourses(courses: readonly CourseEnrollment[], choice: CourseChoice, now: Date, locale: string): CourseEnrollment[] {
  // Made only when two courses are compared by name, which the other orders rarely need: a document's
  // first Intl.Collator costs 27 to 37 ms of a phone's CPU in the middle of hydration, of which its
  // collation data about 10 (the rest moves to the first date's formatter; docs/performance.md, TBT).
  let collator: Intl.Collator | undefined;
  const byName = (a: CourseEnrollment, b: CourseEnrollment) =>
    (collator ??= sharedCollator(locale, { sensitivity: "base", numeric: true })).compare(a.name, b.name) ||
    (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
  const compare = (a: CourseEnrollment, b: CourseEnrollment): number => {
    switch (choice.sort) {
      case "recent":
        return (
          Number(hasAccessEnded(a.access, now)) - Number(hasAccessEnded(b.access, now)) || watchedAtMs(b) - watchedAtMs(a) || byName(a, b)
        );
      case "expiry": {
        const [groupA, keyA] = expiryRank(a, now);
        const [groupB, keyB] = expiryRank(b, now);
        return groupA - groupB || keyA - keyB || byName(a, b);
      }
      case "name":
        return byName(a, b);
    }
  };
  return courses.filter((course) => matchesShow(course, choice.show, now) && matchesSearch(course, choice.q)).sort(compare);
}
