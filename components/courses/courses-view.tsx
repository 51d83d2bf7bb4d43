"use client";

import { useEffect, useMemo } from "react";
import { useFirstNewItemFocus } from "@/lib/client/first-new-item-focus";
import { flattenPages, usePagedAccountPage } from "@/lib/client/hooks";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { MAX_SHOWN_PAGES } from "@/lib/contract/shown-pages";
import { COURSE_CARDS_STEP, countCoursesByShow, courseListQuery, selectCourses, type CourseChoice } from "@/lib/format/course-filter";
import { interpolate, type Messages } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorPanel } from "@/components/ui/error-panel";
import { PageHeader } from "@/components/ui/page-header";
import { PagedQueryBody } from "@/components/ui/paged-query-body";
import { listedItemId, ShowMoreButton } from "@/components/ui/show-more-button";
import { useEmbedding } from "@/components/layout/embedding-context";
import { SiteLink } from "@/components/layout/site-link";
import { CourseCard } from "./course-card";
import { COURSE_RESULTS_ID, CourseFilters } from "./course-filters";
import { useCourseChoice, useShownCount } from "./use-course-choice";
import { COURSE_ITEM_ATTRIBUTE, useCourseLeftFrom } from "./use-course-left-from";

type CoursesQuery = ReturnType<typeof usePagedAccountPage<"courses">>;

/**
 * The Courses page: every enrollment (the server loads them all, within a bound), "Find a course", a
 * "Show" group with counts and a sort, all kept in the URL, and the chosen courses 24 at a time. A search
 * reads the enrollments beyond the bound too, a bound at a time, so it finds any course.
 */
export function CoursesView() {
  const { messages, now, locale } = useI18n();
  const query = usePagedAccountPage("courses");
  const [choice, setChoice] = useCourseChoice();
  const pages = query.data?.pages;
  const courses = useMemo(() => flattenPages(pages, (course) => course.slug), [pages]);
  const totalCount = pages?.[0]?.totalCount ?? 0;
  const searching = choice.q.trim() !== "";
  const counts = useMemo(() => countCoursesByShow(courses, now, choice.q), [courses, now, choice.q]);
  const selected = useMemo(() => selectCourses(courses, choice, now, locale), [courses, choice, now, locale]);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;

  useEffect(() => {
    if (searching && hasNextPage && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
  }, [searching, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  const description =
    courses.length === 0
      ? undefined
      : totalCount === 1
        ? messages.courses.countOne
        : interpolate(messages.courses.count, { count: totalCount });

  return (
    <div>
      <PageHeader title={messages.courses.title} description={description} />
      <PagedQueryBody
        query={query}
        items={courses}
        keyOf={(course) => course.slug}
        showMore="children"
        texts={{
          error: messages.errors.courses,
          empty: messages.courses.empty,
          emptyBody: messages.courses.emptyBody,
          showMore: messages.courses.showMore,
          loadingMore: messages.courses.loadingMore,
          unavailableOne: messages.courses.unavailableOne,
          unavailable: messages.courses.unavailable,
        }}
        emptyAction={<SiteLink page="courses" label={messages.emptyStates.browseCourses} />}
      >
        {() => (
          <>
            <CourseFilters choice={choice} counts={counts} onChange={setChoice} />
            {query.hasNextPage ? (
              <p className="mb-4 rounded-lg bg-warning-bg px-3 py-2 text-sm text-warning-fg">
                {interpolate(messages.courses.bounded, { loaded: courses.length, total: totalCount })}
              </p>
            ) : null}
            <ChosenCourses
              key={`${choice.show}/${choice.sort}/${choice.q}`}
              choice={choice}
              courses={selected}
              query={query}
              noMatchBody={noMatchBodyOf(searching, counts.all, messages)}
            />
          </>
        )}
      </PagedQueryBody>
    </div>
  );
}

/** What might find a course when none is shown: other words, another Show option, or both. */
function noMatchBodyOf(searching: boolean, matchingAnyShow: number, messages: Messages): string {
  if (!searching) return messages.courses.noMatchShowBody;
  return matchingAnyShow === 0 ? messages.courses.noMatchWordsBody : messages.courses.noMatchBody;
}

/**
 * The chosen courses, a step at a time, with "Showing N of M" (M: those matching); when none, `noMatchBody`
 * says what might find some (other words when no Show option holds a course with them). "Show 24 more (82 left)"
 * moves focus to the first course it adds (the status line announces the new count); past the last loaded
 * course, "Show more" loads the next 500 enrollments. How many are shown, and how many loads of enrollments
 * were read, are kept in the URL (useShownCount), so Back from a lecture and a reload find the list, and
 * the course, where they were (the course a link left from comes into view: useCourseLeftFrom). Pressed
 * before the page is interactive, either button loads that URL (the server reads as many loads, up to
 * MAX_SHOWN_PAGES), and the browser scrolls to the first course it adds.
 */
function ChosenCourses({
  choice,
  courses,
  query,
  noMatchBody,
}: {
  choice: CourseChoice;
  courses: CourseEnrollment[];
  query: CoursesQuery;
  noMatchBody: string;
}) {
  const { messages } = useI18n();
  const { embedded } = useEmbedding();
  const [visible, setVisible] = useShownCount(choice);
  const shown = Math.min(visible, courses.length);
  const left = courses.length - shown;
  const shownCourses = courses.slice(0, shown);
  // With every loaded course shown, Show more reads the next load of enrollments (500): the URL keeps how
  // many loads the list holds beside the count shown, and the server reads that many (up to MAX_SHOWN_PAGES).
  const readsNextLoad = left === 0;
  const pagesAfterPress = (query.data?.pages.length ?? 1) + (readsNextLoad ? 1 : 0);
  // Past the loaded courses, the first one Show more adds arrives with the site's next page.
  const { markShown, focusProps } = useFirstNewItemFocus(shownCourses.map((course) => course.slug));
  // A search reads the courses beyond the bound too (its busy "Loading more…" below): until it has, saying
  // that no course has these words would be said too early, and so it would when that read failed (its
  // error with Retry stands in the list's place).
  const stillSearching = choice.q.trim() !== "" && query.hasNextPage;
  const noteCourseLeftFrom = useCourseLeftFrom(shownCourses.length > 0);

  return (
    <>
      <p id={COURSE_RESULTS_ID} role="status" className="mb-4 scroll-mt-20 text-sm text-fg-muted">
        {interpolate(messages.courses.showing, { shown, count: courses.length })}
      </p>
      {courses.length === 0 ? (
        stillSearching ? null : (
          <EmptyState title={messages.courses.noMatch} body={noMatchBody} />
        )
      ) : (
        <ul className={`grid gap-2 ${embedded ? "" : "sm:grid-cols-2 sm:gap-4 lg:grid-cols-3"}`} onClick={noteCourseLeftFrom}>
          {shownCourses.map((course, index) => (
            <li
              key={course.slug}
              id={listedItemId(index + 1)}
              {...{ [COURSE_ITEM_ATTRIBUTE]: course.slug }}
              {...focusProps(course.slug)}
              className="rounded-xl outline-offset-4"
            >
              <CourseCard course={course} rowOnly={embedded} remindersInRows={choice.show === "ending-soon"} />
            </li>
          ))}
        </ul>
      )}
      {query.isFetchNextPageError ? (
        <div className="mt-6">
          <ErrorPanel
            title={messages.errors.courses}
            error={query.error}
            onRetry={() => void query.fetchNextPage()}
            retrying={query.isFetchingNextPage}
          />
        </div>
      ) : left > 0 || query.hasNextPage ? (
        <ShowMoreButton
          onClick={() => {
            markShown();
            setVisible(shown + COURSE_CARDS_STEP, pagesAfterPress);
            if (readsNextLoad) void query.fetchNextPage();
          }}
          loading={readsNextLoad && query.isFetchingNextPage}
          label={
            readsNextLoad
              ? messages.courses.showMore
              : interpolate(messages.courses.showMoreCounted, { count: Math.min(COURSE_CARDS_STEP, left), left })
          }
          loadingLabel={messages.courses.loadingMore}
          opensBeforeHydration={
            readsNextLoad && pagesAfterPress > MAX_SHOWN_PAGES
              ? undefined
              : {
                  action: `${PAGE_PATHS.courses}#${listedItemId(shown + 1)}`,
                  query: courseListQuery(choice, shown + COURSE_CARDS_STEP, pagesAfterPress),
                }
          }
        />
      ) : null}
    </>
  );
}
