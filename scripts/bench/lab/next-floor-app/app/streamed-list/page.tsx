import { Suspense } from "react";

import { CourseList } from "../course-list";

/**
 * The same courses behind a Suspense boundary. In this app the page is still rendered on every request,
 * its shell streamed first; built with Cache Components (`../../next-floor-ppr-app`, which serves this
 * very page) the shell is prerendered at build time and only the list is rendered per request (Partial
 * Prerendering).
 */
export default function StreamedListPage() {
  return (
    <section aria-labelledby="courses-heading">
      <h1 id="courses-heading">Courses</h1>
      <Suspense fallback={<p>Loading your courses…</p>}>
        <CourseList />
      </Suspense>
    </section>
  );
}
