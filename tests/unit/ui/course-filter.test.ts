import { describe, expect, it } from "vitest";
import {
  COURSE_CARDS_STEP,
  countCoursesByShow,
  courseChoiceQuery,
  courseListQuery,
  MAX_SHOWN_COURSES,
  DEFAULT_COURSE_CHOICE,
  matchesSearch,
  matchesShow,
  normalizeForSearch,
  parseCourseChoice,
  parseShownCount,
  selectCourses,
} from "@/lib/format/course-filter";
import { sharedFormatterCount } from "@/lib/format/intl-formatters";
import { parseShownPages } from "@/lib/contract/shown-pages";
import type { CourseEnrollment } from "@/lib/types/account";

const NOW = new Date("2026-12-10T00:00:00Z");
const DAY = 86_400_000;

function course(
  slug: string,
  options: { expiresInDays?: number | null; watchedDaysAgo?: number | null; completion?: number | null; name?: string } = {},
): CourseEnrollment {
  const { expiresInDays = null, watchedDaysAgo = null, completion = 10 } = options;
  return {
    slug,
    name: options.name ?? slug,
    imageUrl: null,
    courseUrl: `https://school.example.com/courses/${slug}`,
    access:
      expiresInDays === null
        ? { kind: "lifetime" }
        : { kind: "until", expiresAt: new Date(NOW.getTime() + expiresInDays * DAY).toISOString() },
    completionPercentage: completion,
    lastWatched:
      watchedDaysAgo === null
        ? null
        : {
            lectureId: "L1",
            positionSeconds: 10,
            title: null,
            watchedAt: new Date(NOW.getTime() - watchedDaysAgo * DAY).toISOString(),
            resumeUrl: `https://school.example.com/courses/${slug}/lectures/L1?t=10`,
          },
  };
}

const courses = [
  course("lifetime-watched", { watchedDaysAgo: 1, name: "Bread" }),
  course("ends-in-2-days-unwatched", { expiresInDays: 2, name: "Clay" }),
  course("ends-in-30-days", { expiresInDays: 30, watchedDaysAgo: 5, name: "Dance" }),
  course("ends-in-31-days", { expiresInDays: 31, watchedDaysAgo: 3, name: "Art" }),
  course("ended-watched", { expiresInDays: -3, watchedDaysAgo: 20, name: "Excel" }),
  course("ended-long-ago", { expiresInDays: -40, name: "Film" }),
  course("finished", { expiresInDays: 200, watchedDaysAgo: 2, completion: 100, name: "Guitar" }),
];

describe("parseCourseChoice and courseChoiceQuery", () => {
  it("reads the choice from the URL and falls back to All / Recently watched on anything unknown", () => {
    expect(parseCourseChoice(new URLSearchParams("show=ending-soon&sort=expiry"))).toEqual({ show: "ending-soon", sort: "expiry", q: "" });
    expect(parseCourseChoice({ show: ["ended", "all"], sort: "name" })).toEqual({ show: "ended", sort: "name", q: "" });
    expect(parseCourseChoice(new URLSearchParams(`q=${"x".repeat(300)}`)).q).toHaveLength(100);
    expect(parseCourseChoice(new URLSearchParams("show=everything&sort=<script>"))).toEqual(DEFAULT_COURSE_CHOICE);
    expect(parseCourseChoice({})).toEqual(DEFAULT_COURSE_CHOICE);
  });

  it("writes only what differs from the default, and round-trips", () => {
    expect(courseChoiceQuery(DEFAULT_COURSE_CHOICE)).toBe("");
    expect(courseChoiceQuery({ show: "ending-soon", sort: "expiry", q: "" })).toBe("?show=ending-soon&sort=expiry");
    expect(courseChoiceQuery({ show: "all", sort: "name", q: "" })).toBe("?sort=name");
    expect(parseCourseChoice(new URLSearchParams(courseChoiceQuery({ show: "not-started", sort: "recent", q: "" })))).toEqual({
      show: "not-started",
      sort: "recent",
      q: "",
    });
    expect(courseChoiceQuery({ show: "ended", sort: "recent", q: "日本語 & more" })).toBe(
      "?show=ended&q=%E6%97%A5%E6%9C%AC%E8%AA%9E+%26+more",
    );
    expect(parseCourseChoice(new URLSearchParams(courseChoiceQuery({ show: "all", sort: "name", q: "Japanese" })))).toEqual({
      show: "all",
      sort: "name",
      q: "Japanese",
    });
    expect(courseChoiceQuery({ show: "all", sort: "recent", q: "   " })).toBe("");
  });
});

describe("parseShownCount and courseListQuery: how many courses the list shows, kept in the URL", () => {
  it("keeps the count past one step beside the choice, and round-trips", () => {
    const choice = { show: "ending-soon", sort: "expiry", q: "java" } as const;
    expect(courseListQuery(choice, 72)).toBe("?show=ending-soon&sort=expiry&q=java&shown=72");
    expect(courseListQuery(DEFAULT_COURSE_CHOICE, 48)).toBe("?shown=48");
    expect(parseShownCount(new URLSearchParams("show=ending-soon&shown=72"))).toBe(72);
    expect(parseShownCount({ shown: "48" })).toBe(48);
    expect(parseCourseChoice(new URLSearchParams(courseListQuery(choice, 72)))).toEqual(choice);
  });

  it("reads the first of a repeated count, from a URL's query as from Next's searchParams", () => {
    expect(parseShownCount(new URLSearchParams("shown=48&shown=72"))).toBe(48);
    expect(parseShownCount({ shown: ["48", "72"] })).toBe(48);
  });

  it("leaves the first step out of the URL, so a choice's own URL stays as it was", () => {
    expect(courseListQuery(DEFAULT_COURSE_CHOICE, COURSE_CARDS_STEP)).toBe("");
    expect(courseListQuery({ show: "ended", sort: "recent", q: "" }, COURSE_CARDS_STEP)).toBe("?show=ended");
  });

  it("keeps how many loads of enrollments were read past the first, after the count, and the choice reads as before", () => {
    const choice = { show: "all", sort: "name", q: "" } as const;
    expect(courseListQuery(choice, 524, 2)).toBe("?sort=name&shown=524&pages=2");
    expect(courseListQuery(choice, COURSE_CARDS_STEP, 3)).toBe("?sort=name&pages=3");
    expect(courseListQuery(choice, 48, 1)).toBe("?sort=name&shown=48");
    expect(parseShownPages(new URLSearchParams(courseListQuery(choice, 524, 2)))).toBe(2);
    expect(parseShownCount(new URLSearchParams(courseListQuery(choice, 524, 2)))).toBe(524);
    expect(parseCourseChoice(new URLSearchParams(courseListQuery(choice, 524, 2)))).toEqual(choice);
  });

  it("reads one step from a missing, unreadable or too small count, and cuts a huge one", () => {
    for (const shown of [undefined, "", "abc", "-48", "4.5", "1e3", "0", "10"]) {
      expect(parseShownCount(shown === undefined ? {} : { shown }), String(shown)).toBe(COURSE_CARDS_STEP);
    }
    expect(parseShownCount({ shown: "999999" })).toBe(MAX_SHOWN_COURSES);
    expect(parseShownCount({ shown: "9999999999" })).toBe(COURSE_CARDS_STEP);
    // More than six digits is not read as a count at all: one step, not the most.
    expect(parseShownCount({ shown: "1000000" })).toBe(COURSE_CARDS_STEP);
    expect(courseListQuery(DEFAULT_COURSE_CHOICE, 99_999)).toBe(`?shown=${MAX_SHOWN_COURSES}`);
  });

  it("writes whole numbers only, so a URL it wrote reads back as the same count and loads", () => {
    expect(courseListQuery(DEFAULT_COURSE_CHOICE, 48.5, 2.5)).toBe("?shown=48&pages=2");
    expect(parseShownCount(new URLSearchParams(courseListQuery(DEFAULT_COURSE_CHOICE, 48.5, 2.5)))).toBe(48);
    expect(parseShownPages(new URLSearchParams(courseListQuery(DEFAULT_COURSE_CHOICE, 48.5, 2.5)))).toBe(2);
  });
});

describe("Find a course", () => {
  const named = (name: string) => course(name.toLowerCase().replace(/\W+/g, "-"), { name });

  it("ignores case, accents and full-width forms, and keeps CJK characters as written", () => {
    expect(normalizeForSearch("  Crème   BRÛLÉE ")).toBe("creme brulee");
    expect(normalizeForSearch("Ｊａｐａｎｅｓｅ")).toBe("japanese");
    expect(normalizeForSearch("ガイド")).toBe("ガイド");
    expect(matchesSearch(named("Japanese for Beginners"), "japanese")).toBe(true);
    expect(matchesSearch(named("Café Culture"), "CAFE")).toBe(true);
    expect(matchesSearch(named("Crème brûlée"), "creme BRULEE")).toBe(true);
    expect(matchesSearch(named("日本語入門"), "日本語")).toBe(true);
    expect(matchesSearch(named("日本語入門"), "中文")).toBe(false);
    expect(matchesSearch(named("ガイド"), "カイト")).toBe(false);
    expect(matchesSearch(named("Japanese for Beginners"), "beginners japanese")).toBe(true);
    expect(matchesSearch(named("Japanese for Beginners"), "japanese korean")).toBe(false);
    expect(matchesSearch(named("Anything"), "")).toBe(true);
  });

  it("combines with Show and the sort, and the counts follow the search", () => {
    expect(selectCourses(courses, { show: "in-progress", sort: "name", q: "a" }, NOW, "en").map((c) => c.name)).toEqual([
      "Art",
      "Bread",
      "Dance",
    ]);
    expect(countCoursesByShow(courses, NOW, "clay")).toMatchObject({ all: 1, "not-started": 1, "ending-soon": 1, ended: 0 });
  });

  it("leaves out of the list every course whose name does not hold the search text", () => {
    expect(selectCourses(courses, { show: "all", sort: "recent", q: "dance" }, NOW, "en").map((c) => c.name)).toEqual(["Dance"]);
    expect(selectCourses(courses, { show: "all", sort: "name", q: "cooking" }, NOW, "en")).toEqual([]);
  });
});

describe("matchesShow and countCoursesByShow", () => {
  it("puts each course where a student would look for it", () => {
    const slugsOf = (show: Parameters<typeof matchesShow>[1]) => courses.filter((c) => matchesShow(c, show, NOW)).map((c) => c.slug);
    expect(slugsOf("in-progress")).toEqual(["lifetime-watched", "ends-in-30-days", "ends-in-31-days"]);
    expect(slugsOf("not-started")).toEqual(["ends-in-2-days-unwatched"]);
    expect(slugsOf("ending-soon")).toEqual(["ends-in-2-days-unwatched", "ends-in-30-days"]);
    expect(slugsOf("ended")).toEqual(["ended-watched", "ended-long-ago"]);
    expect(slugsOf("lifetime")).toEqual(["lifetime-watched"]);
    expect(slugsOf("all")).toHaveLength(courses.length);
  });

  it("counts every choice", () => {
    expect(countCoursesByShow(courses, NOW)).toEqual({
      all: 7,
      "in-progress": 3,
      "not-started": 1,
      "ending-soon": 2,
      ended: 2,
      lifetime: 1,
    });
    expect(countCoursesByShow([], NOW)).toEqual({ all: 0, "in-progress": 0, "not-started": 0, "ending-soon": 0, ended: 0, lifetime: 0 });
  });

  it("without where a course was left off (the site failed to say), reads whether it started from its progress, else neither", () => {
    const unknown = (completion: number | null): CourseEnrollment => ({ ...course("unknown", { completion }), lastWatchedUnknown: true });
    const placed = (completion: number | null) =>
      (["in-progress", "not-started"] as const).filter((show) => matchesShow(unknown(completion), show, NOW));
    expect(placed(40)).toEqual(["in-progress"]);
    expect(placed(null)).toEqual([]);
    expect(placed(100)).toEqual([]);
  });

  it("counts access ending exactly now as ended, not ending soon", () => {
    const now = course("now", { expiresInDays: 0 });
    expect(matchesShow(now, "ended", NOW)).toBe(true);
    expect(matchesShow(now, "ending-soon", NOW)).toBe(false);
    expect(matchesShow(now, "not-started", NOW)).toBe(false);
  });
});

describe("selectCourses", () => {
  const slugs = (list: CourseEnrollment[]) => list.map((c) => c.slug);

  it("sorts by recently watched, never-watched after, and courses whose access ended last", () => {
    expect(slugs(selectCourses(courses, { show: "all", sort: "recent", q: "" }, NOW, "en"))).toEqual([
      "lifetime-watched",
      "finished",
      "ends-in-31-days",
      "ends-in-30-days",
      "ends-in-2-days-unwatched",
      "ended-watched",
      "ended-long-ago",
    ]);
  });

  it("sorts by access ending soonest: running courses, then lifetime, then the most recently ended", () => {
    expect(slugs(selectCourses(courses, { show: "all", sort: "expiry", q: "" }, NOW, "en"))).toEqual([
      "ends-in-2-days-unwatched",
      "ends-in-30-days",
      "ends-in-31-days",
      "finished",
      "lifetime-watched",
      "ended-watched",
      "ended-long-ago",
    ]);
  });

  it("makes the document's collator only when two courses are compared by name (a first one stalls hydration)", () => {
    const distinct = [
      course("a", { watchedDaysAgo: 1 }),
      course("b", { watchedDaysAgo: 2, expiresInDays: 5 }),
      course("c", { expiresInDays: 9 }),
    ];
    const before = sharedFormatterCount();
    expect(slugs(selectCourses(distinct, { show: "all", sort: "recent", q: "" }, NOW, "en-NZ"))).toEqual(["a", "b", "c"]);
    expect(slugs(selectCourses(distinct, { show: "all", sort: "expiry", q: "" }, NOW, "en-NZ"))).toEqual(["b", "c", "a"]);
    expect(sharedFormatterCount()).toBe(before);
    // Two never-watched courses tie on "recently watched": their names decide.
    const tied = [...distinct, course("d", { name: "Ab", expiresInDays: 9 })];
    expect(slugs(selectCourses(tied, { show: "all", sort: "recent", q: "" }, NOW, "en-NZ"))).toEqual(["a", "b", "d", "c"]);
    expect(sharedFormatterCount()).toBe(before + 1);
  });

  it("sorts by name in the member's language and filters before sorting", () => {
    expect(slugs(selectCourses(courses, { show: "all", sort: "name", q: "" }, NOW, "en"))).toEqual([
      "ends-in-31-days",
      "lifetime-watched",
      "ends-in-2-days-unwatched",
      "ends-in-30-days",
      "ended-watched",
      "ended-long-ago",
      "finished",
    ]);
    expect(slugs(selectCourses(courses, { show: "ending-soon", sort: "name", q: "" }, NOW, "en"))).toEqual([
      "ends-in-2-days-unwatched",
      "ends-in-30-days",
    ]);
  });

  it("puts Lesson 2 before Lesson 10, reading numbers in names as numbers", () => {
    const lessons = [course("ten", { name: "Lesson 10" }), course("two", { name: "Lesson 2" })];
    expect(slugs(selectCourses(lessons, { show: "all", sort: "name", q: "" }, NOW, "en"))).toEqual(["two", "ten"]);
  });

  it("orders courses whose access ends at the same moment by name", () => {
    const sameEnd = [course("zither", { name: "Zither", expiresInDays: 5 }), course("art", { name: "Art", expiresInDays: 5 })];
    expect(slugs(selectCourses(sameEnd, { show: "all", sort: "expiry", q: "" }, NOW, "en"))).toEqual(["art", "zither"]);
  });

  it("orders courses of the same name by their slug, whatever order the site listed them in", () => {
    const twins = [course("watercolour-b", { name: "Watercolour" }), course("watercolour-a", { name: "Watercolour" })];
    for (const listed of [twins, [...twins].reverse()]) {
      expect(slugs(selectCourses(listed, { show: "all", sort: "name", q: "" }, NOW, "en"))).toEqual(["watercolour-a", "watercolour-b"]);
    }
  });

  it("never changes its input", () => {
    const before = slugs(courses);
    selectCourses(courses, { show: "all", sort: "name", q: "" }, NOW, "zh-TW");
    expect(slugs(courses)).toEqual(before);
  });
});
