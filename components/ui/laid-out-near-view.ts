/**
 * Class names for the items of the long lists (courses, orders, event registrations): the browser lays
 * out and paints an item only once it comes near the viewport (`content-visibility: auto`), and holds its
 * place meanwhile at the size it had when last drawn, or at the estimate before that
 * (`contain-intrinsic-size: auto <estimate>`, each list's item height on a phone; Courses' cards from 640 px).
 * A page's first layout, which the browser finishes before its first paint, then covers what the first
 * screen shows: on Courses in Chromium, 25 ms instead of 47 at the median with 8 courses,
 * 23 ms instead of 39 with 24 (issue 26, docs/performance.md). Items stay in the accessibility tree and in
 * find-in-page, and one that takes focus is drawn.
 */
export const LAID_OUT_NEAR_VIEW = {
  course: "[content-visibility:auto] [contain-intrinsic-size:auto_8rem] sm:[contain-intrinsic-size:auto_28rem]",
  order: "[content-visibility:auto] [contain-intrinsic-size:auto_17rem]",
  event: "[content-visibility:auto] [contain-intrinsic-size:auto_13rem]",
} as const;
