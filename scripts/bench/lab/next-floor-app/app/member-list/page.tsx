import { connection } from "next/server";

interface Enrollment {
  slug: string;
  name?: string | null;
  expireDate: string | null;
  hasLifetimeAccess: boolean;
  completionPercentage?: number | null;
}

/**
 * The least a member's page can do on every view: the page behind a nonce CSP (./proxy.ts) and one call
 * to the site for the member's courses, the operation and token of the bench's direct call (handed over
 * by scripts/bench/lab/next-floor.ts in FLOOR_GRAPHQL_URL, FLOOR_GRAPHQL_AUTHORIZATION and
 * FLOOR_GRAPHQL_BODY), rendered as plain server markup: no session, no refresh, no providers, no styles.
 */
export default async function MemberListPage() {
  await connection();
  const response = await fetch(process.env.FLOOR_GRAPHQL_URL!, {
    method: "POST",
    headers: { authorization: process.env.FLOOR_GRAPHQL_AUTHORIZATION!, "content-type": "application/json" },
    body: process.env.FLOOR_GRAPHQL_BODY!,
    cache: "no-store",
  });
  const { data } = (await response.json()) as { data: { viewer: { enrolledCourses: { nodes: Enrollment[] } } } };
  return (
    <section aria-labelledby="courses-heading">
      <h1 id="courses-heading">Courses</h1>
      <ul>
        {data.viewer.enrolledCourses.nodes.map((course) => (
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
