"use client";

import { flattenPages, useCourses } from "@/lib/client/hooks";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import { PageHeader } from "@/components/ui/page-header";
import { PagedQueryBody } from "@/components/ui/paged-query-body";
import { CourseCard } from "./course-card";

/** The Courses page: every enrollment, a page at a time ("Show more"). */
export function CoursesView() {
  const { messages } = useI18n();
  const query = useCourses();
  const courses = flattenPages(query.data?.pages);
  const totalCount = query.data?.pages[0]?.totalCount ?? 0;

  const description =
    courses.length === 0 ? undefined : totalCount === 1 ? messages.courses.countOne : interpolate(messages.courses.count, { count: totalCount });

  return (
    <div>
      <PageHeader title={messages.courses.title} description={description} />
      <PagedQueryBody
        query={query}
        items={courses}
        texts={{
          error: messages.errors.courses,
          empty: messages.courses.empty,
          emptyBody: messages.courses.emptyBody,
          showMore: messages.courses.showMore,
          loadingMore: messages.courses.loadingMore,
        }}
      >
        {(items) => (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {items.map((course) => (
              <li key={course.slug}>
                <CourseCard course={course} />
              </li>
            ))}
          </ul>
        )}
      </PagedQueryBody>
    </div>
  );
}
