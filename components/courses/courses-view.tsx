"use client";

import { useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { flattenPages, usePagedAccountPage } from "@/lib/client/hooks";
import { countCoursesByShow, courseChoiceQuery, parseCourseChoice, selectCourses, type CourseChoice } from "@/lib/format/course-filter";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseEnrollment } from "@/lib/types/account";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { ShowMoreButton } from "@/components/ui/show-more-button";
import { useEmbedding } from "@/components/layout/embedding-context";
import { CourseCard } from "./course-card";
import { CourseFilters } from "./course-filters";

/** Cards shown at first and added by each "Show more". */
const CARDS_PER_STEP = 24;

/**
 * The choice, kept in the URL: it answers a click at once, replaces the history entry (so arrowing through
 * the choices does not fill the history), and follows the URL when it changes otherwise (back, forward).
 */
function useUrlChoice(): [CourseChoice, (next: CourseChoice) => void] {
  const fromUrl = parseCourseChoice(useSearchParams());
  const urlKey = courseChoiceQuery(fromUrl);
  const [choice, setChoice] = useState(fromUrl);
  const [seenUrlKey, setSeenUrlKey] = useState(urlKey);
  if (urlKey !== seenUrlKey) {
    setSeenUrlKey(urlKey);
    setChoice(fromUrl);
  }
  const choose = (next: CourseChoice) => {
    setChoice(next);
    window.history.replaceState(null, "", `${window.location.pathname}${courseChoiceQuery(next)}${window.location.hash}`);
  };
  return [choice, choose];
}

/**
 * The Courses page: every enrollment (the server loads them all, within a bound), a "Show" group with
 * counts and a sort, both kept in the URL, and the chosen courses 24 at a time.
 */
export function CoursesView() {
  const { messages, now, locale } = useI18n();
  const query = usePagedAccountPage("courses");
  const [choice, setChoice] = useUrlChoice();
  const pages = query.data?.pages;
  const courses = useMemo(() => flattenPages(pages), [pages]);
  const totalCount = pages?.[0]?.totalCount ?? 0;
  const counts = useMemo(() => countCoursesByShow(courses, now), [courses, now]);
  const selected = useMemo(() => selectCourses(courses, choice, now, locale), [courses, choice, now, locale]);

  const description =
    courses.length === 0
      ? undefined
      : totalCount === 1
        ? messages.courses.countOne
        : interpolate(messages.courses.count, { count: totalCount });

  let body;
  if (query.isPending) body = <LoadingState label={messages.app.loading} />;
  else if (query.isError && courses.length === 0) {
    body = (
      <ErrorPanel title={messages.errors.courses} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
    );
  } else if (courses.length === 0) body = <EmptyState title={messages.courses.empty} body={messages.courses.emptyBody} />;
  else {
    body = (
      <>
        <CourseFilters choice={choice} counts={counts} onChange={setChoice} />
        <p role="status" className="mb-4 text-sm text-fg-muted">
          {interpolate(messages.courses.matching, { count: selected.length, total: totalCount })}
        </p>
        {query.hasNextPage ? (
          <p className="mb-4 rounded-lg bg-warning-bg px-3 py-2 text-sm text-warning-fg">
            {interpolate(messages.courses.bounded, { loaded: courses.length, total: totalCount })}
          </p>
        ) : null}
        <ChosenCourses key={`${choice.show}/${choice.sort}`} courses={selected} query={query} />
      </>
    );
  }

  return (
    <div>
      <PageHeader title={messages.courses.title} description={description} />
      {body}
    </div>
  );
}

/** The chosen courses, a step at a time; past the last loaded one, "Show more" loads the enrollments beyond the bound. */
function ChosenCourses({ courses, query }: { courses: CourseEnrollment[]; query: ReturnType<typeof usePagedAccountPage<"courses">> }) {
  const { messages } = useI18n();
  const { embedded } = useEmbedding();
  const [visible, setVisible] = useState(CARDS_PER_STEP);
  const hiddenHere = courses.length > visible;
  return (
    <>
      {courses.length === 0 ? (
        <EmptyState title={messages.courses.noMatch} body={messages.courses.noMatchBody} />
      ) : (
        <ul className={`grid gap-2 ${embedded ? "" : "sm:grid-cols-2 sm:gap-4 lg:grid-cols-3"}`}>
          {courses.slice(0, visible).map((course) => (
            <li key={course.slug}>
              <CourseCard course={course} rowOnly={embedded} />
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
      ) : hiddenHere || query.hasNextPage ? (
        <ShowMoreButton
          onClick={() => {
            if (!hiddenHere) void query.fetchNextPage();
            setVisible((count) => count + CARDS_PER_STEP);
          }}
          loading={query.isFetchingNextPage}
          label={messages.courses.showMore}
          loadingLabel={messages.courses.loadingMore}
        />
      ) : null}
    </>
  );
}
