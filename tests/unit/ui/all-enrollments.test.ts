import { describe, expect, it } from "vitest";

import { loadAllEnrollments, reshapeAllEnrollments, type CoursesResult, type CoursesVariables, type RawEnrolledCourse } from "@/lib/account";

function enrollment(index: number): RawEnrolledCourse {
  return {
    slug: `course-${index}`,
    name: `Course ${index}`,
    imageUrl: null,
    expireDate: null,
    hasLifetimeAccess: true,
    completionPercentage: null,
    lastWatchedLecture: null,
  };
}

/** A site holding `total` enrollments that pages by offset cursors, capped at `cap` per page; it records what it was asked. */
function fakeSite(total: number, cap = 100) {
  const asked: CoursesVariables[] = [];
  const all = Array.from({ length: total }, (_, index) => enrollment(index));
  const fetchPage = (variables: CoursesVariables): Promise<CoursesResult> => {
    asked.push(variables);
    if (variables.first > cap) return Promise.reject(new Error(`first must be at most ${cap}`));
    const start = variables.after === null ? 0 : Number(variables.after);
    const nodes = all.slice(start, start + variables.first);
    const end = start + nodes.length;
    return Promise.resolve({
      viewer: { enrolledCourses: { totalCount: total, pageInfo: { hasNextPage: end < total, endCursor: String(end) }, nodes } },
    });
  };
  return { asked, fetchPage };
}

describe("loadAllEnrollments", () => {
  it("follows the pages until the site has no more, asking for modest pages", async () => {
    const site = fakeSite(130);
    const all = await loadAllEnrollments(site.fetchPage);
    expect(all.nodes.map((node) => node.slug)).toEqual(Array.from({ length: 130 }, (_, index) => `course-${index}`));
    expect(all).toMatchObject({ totalCount: 130, nextCursor: null });
    expect(site.asked).toEqual([
      { first: 50, after: null },
      { first: 50, after: "50" },
      { first: 50, after: "100" },
    ]);
  });

  it("stops at the bound, says where it stopped, and goes on from there", async () => {
    const site = fakeSite(130);
    const first = await loadAllEnrollments(site.fetchPage, { bound: 70 });
    expect(first.nodes).toHaveLength(70);
    expect(first).toMatchObject({ totalCount: 130, nextCursor: "70" });
    expect(site.asked.map((variables) => variables.first)).toEqual([50, 20]);
    const rest = await loadAllEnrollments(site.fetchPage, { after: first.nextCursor, bound: 70 });
    expect(rest.nodes.map((node) => node.slug)).toEqual(Array.from({ length: 60 }, (_, index) => `course-${70 + index}`));
    expect(rest.nextCursor).toBeNull();
  });

  it("says nothing is left when the bound falls exactly on the last enrollment", async () => {
    const all = await loadAllEnrollments(fakeSite(100).fetchPage, { bound: 100 });
    expect(all.nodes).toHaveLength(100);
    expect(all.nextCursor).toBeNull();
  });

  it("works with a site that caps pages lower than it is asked, by following its cursors", async () => {
    const site = fakeSite(45, 100);
    const small = (variables: CoursesVariables) => site.fetchPage({ ...variables, first: Math.min(variables.first, 10) });
    const all = await loadAllEnrollments(small);
    expect(all.nodes).toHaveLength(45);
    expect(site.asked).toHaveLength(5);
  });

  it("ends instead of looping when a site repeats a cursor or sends an empty page while claiming more", async () => {
    let calls = 0;
    const repeating = (): Promise<CoursesResult> => {
      calls += 1;
      return Promise.resolve({ viewer: { enrolledCourses: { totalCount: 999, pageInfo: { hasNextPage: true, endCursor: "same" }, nodes: [enrollment(calls)] } } });
    };
    const repeated = await loadAllEnrollments(repeating);
    expect(calls).toBe(2);
    expect(repeated.nextCursor).toBeNull();

    const empty = (): Promise<CoursesResult> =>
      Promise.resolve({ viewer: { enrolledCourses: { totalCount: 5, pageInfo: { hasNextPage: true, endCursor: "more" }, nodes: [] } } });
    expect(await loadAllEnrollments(empty)).toEqual({ nodes: [], totalCount: 5, nextCursor: null });
  });

  it("lets a site's failure through to the page's error handling", async () => {
    await expect(loadAllEnrollments(fakeSite(10, 20).fetchPage, { pageSize: 30 })).rejects.toThrow("first must be at most 20");
  });
});

describe("reshapeAllEnrollments", () => {
  it("gives one Courses page with UI courses, the total and where to go on", () => {
    const page = reshapeAllEnrollments(
      { nodes: [enrollment(1)], totalCount: 600, nextCursor: "500" },
      { siteUrl: "https://school.example.com", lectureUrlTemplate: "{site}/l/{lectureId}", courseUrlTemplate: "{site}/c/{slug}" },
    );
    expect(page).toMatchObject({ totalCount: 600, nextCursor: "500", items: [{ slug: "course-1", courseUrl: "https://school.example.com/c/course-1" }] });
  });
});
