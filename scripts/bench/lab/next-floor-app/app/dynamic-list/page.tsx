import { CourseList } from "../course-list";

/** The whole page rendered on every request, once the courses are in (as the dashboard's Courses page is today). */
export default function DynamicListPage() {
  return (
    <section aria-labelledby="courses-heading">
      <h1 id="courses-heading">Courses</h1>
      <CourseList />
    </section>
  );
}
