import { describe, expect, it } from "vitest";

import { reshapeAllEnrollments, type RawEnrolledCourse } from "@/lib/account";

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

describe("reshapeAllEnrollments", () => {
  it("counts what it read when the site tells no total", () => {
    const page = reshapeAllEnrollments(
      { nodes: [enrollment(1), enrollment(2)], totalCount: null, nextCursor: null },
      { siteUrl: "https://school.example.com", lectureUrlTemplate: "{site}/l/{lectureId}", courseUrlTemplate: "{site}/c/{slug}" },
    );
    expect(page.totalCount).toBe(2);
  });

  it("gives one Courses page with UI courses, the total and where to go on", () => {
    const page = reshapeAllEnrollments(
      { nodes: [enrollment(1)], totalCount: 600, nextCursor: "500" },
      { siteUrl: "https://school.example.com", lectureUrlTemplate: "{site}/l/{lectureId}", courseUrlTemplate: "{site}/c/{slug}" },
    );
    expect(page).toMatchObject({
      totalCount: 600,
      nextCursor: "500",
      items: [{ slug: "course-1", courseUrl: "https://school.example.com/c/course-1" }],
    });
  });
});
