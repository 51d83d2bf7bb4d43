import { CourseList } from "../course-list";

/** The 24 courses of /dynamic-list behind the nonce CSP of ./proxy.ts: what the nonce alone adds to a view. */
export default function CspListPage() {
  return (
    <section aria-labelledby="courses-heading">
      <h1 id="courses-heading">Courses</h1>
      <CourseList />
    </section>
  );
}
