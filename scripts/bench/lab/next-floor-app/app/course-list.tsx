import { connection } from "next/server";

const COURSES = Array.from({ length: 24 }, (_, index) => ({
  id: `course-${index}`,
  name: `Course number ${index + 1}, with a name as long as a real one`,
  percentWatched: Math.round((index / 24) * 100),
  accessEnds: `${(index % 28) + 1} Dec 2026`,
}));

/**
 * Rendered on every request after waiting as long as the sandbox's answer (20 ms, without its CPU): 24
 * courses in a list, the shape of the dashboard's Courses page without its code.
 */
export async function CourseList() {
  await connection();
  await new Promise((resolve) => setTimeout(resolve, 20));
  return (
    <ul>
      {COURSES.map((course) => (
        <li key={course.id}>
          <article aria-label={course.name}>
            <h2>{course.name}</h2>
            <p>{course.percentWatched} % watched</p>
            <p>Access ends {course.accessEnds}</p>
            <a href={`/courses/${course.id}`}>Resume</a>
          </article>
        </li>
      ))}
    </ul>
  );
}
