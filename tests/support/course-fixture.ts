import type { CourseEnrollment } from "@/lib/types/account";

/** A course in UI shape whose access ends 13 Dec 2026 (3 days after the tests' 10 Dec), watched an hour in. */
export const WATERCOLOUR_COURSE: CourseEnrollment = {
  slug: "watercolour-101",
  name: "Watercolour 101",
  imageUrl: null,
  courseUrl: "https://school.example.com/courses/watercolour-101",
  access: { kind: "until", expiresAt: "2026-12-13T10:00:00+08:00" },
  completionPercentage: 40,
  lastWatched: {
    lectureId: "L1",
    positionSeconds: 3725,
    title: "Wet on wet",
    watchedAt: "2026-12-09T00:00:00Z",
    resumeUrl: "https://school.example.com/courses/watercolour-101/lectures/L1?t=3725",
  },
};
