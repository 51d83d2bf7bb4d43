import { connection } from "next/server";

export interface Enrollment {
  slug: string;
  name?: string | null;
  expireDate: string | null;
  hasLifetimeAccess: boolean;
  completionPercentage?: number | null;
}

/**
 * The member's courses from the site, once per view: the operation and token of the bench's direct call
 * (handed over by scripts/bench/lab/next-floor.ts in FLOOR_GRAPHQL_URL, FLOOR_GRAPHQL_AUTHORIZATION and
 * FLOOR_GRAPHQL_BODY).
 */
export async function fetchMemberCourses(): Promise<Enrollment[]> {
  await connection();
  const response = await fetch(process.env.FLOOR_GRAPHQL_URL!, {
    method: "POST",
    headers: { authorization: process.env.FLOOR_GRAPHQL_AUTHORIZATION!, "content-type": "application/json" },
    body: process.env.FLOOR_GRAPHQL_BODY!,
    cache: "no-store",
  });
  const { data } = (await response.json()) as { data: { viewer: { enrolledCourses: { nodes: Enrollment[] } } } };
  return data.viewer.enrolledCourses.nodes;
}

/**
 * The courses as plain markup, with no directive of its own: a server component where a server page
 * renders it, a client component inside a "use client" one (client-course-list.tsx).
 */
export function MemberCourses({ courses }: { courses: readonly Enrollment[] }) {
  return (
    <section aria-labelledby="courses-heading">
      <h1 id="courses-heading">Courses</h1>
      <ul>
        {courses.map((course) => (
          <li key={course.slug}>
            <article aria-label={course.name ?? course.slug}>
              <h2>{course.name}</h2>
              <p>{course.completionPercentage ?? 0} % watched</p>
              <p>{course.hasLifetimeAccess ? "Lifetime access" : `Access ends ${course.expireDate ?? ""}`}</p>
              <a href={`/courses/${course.slug}`}>Resume</a>
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}
