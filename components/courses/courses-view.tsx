"use client";

import type { ReactNode } from "react";
import { flattenPages, useCourses } from "@/lib/client/hooks";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { ShowMoreButton } from "@/components/ui/show-more-button";
import { CourseCard } from "./course-card";

/** The Courses page: every enrollment, a page at a time ("Show more"). */
export function CoursesView() {
  const { messages } = useI18n();
  const query = useCourses();
  const courses = flattenPages(query.data?.pages);
  const totalCount = query.data?.pages[0]?.totalCount ?? 0;

  let body: ReactNode;
  if (query.isPending) {
    body = <LoadingState label={messages.app.loading} />;
  } else if (query.isError && courses.length === 0) {
    body = (
      <ErrorPanel title={messages.errors.courses} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
    );
  } else if (courses.length === 0) {
    body = <EmptyState title={messages.courses.empty} body={messages.courses.emptyBody} />;
  } else {
    body = (
      <>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {courses.map((course) => (
            <li key={course.slug}>
              <CourseCard course={course} />
            </li>
          ))}
        </ul>
        {query.isFetchNextPageError ? (
          <div className="mt-6">
            <ErrorPanel
              title={messages.errors.courses}
              error={query.error}
              onRetry={() => void query.fetchNextPage()}
              retrying={query.isFetchingNextPage}
            />
          </div>
        ) : query.hasNextPage ? (
          <ShowMoreButton
            onClick={() => void query.fetchNextPage()}
            loading={query.isFetchingNextPage}
            label={messages.courses.showMore}
            loadingLabel={messages.courses.loadingMore}
          />
        ) : null}
      </>
    );
  }

  const description =
    courses.length === 0 ? undefined : totalCount === 1 ? messages.courses.countOne : interpolate(messages.courses.count, { count: totalCount });

  return (
    <div>
      <PageHeader title={messages.courses.title} description={description} />
      {body}
    </div>
  );
}
