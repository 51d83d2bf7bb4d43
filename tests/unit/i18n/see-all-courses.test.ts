import { describe, expect, it } from "vitest";

import { getMessages, seeAllCourses } from "@/lib/i18n";

describe("seeAllCourses: the Overview's link to the courses ending soon", () => {
  it("names one course without a count (never 'See all 1')", () => {
    expect(seeAllCourses(getMessages("en"), 1)).toBe("See it on the Courses page");
    expect(seeAllCourses(getMessages("zh-TW"), 1)).toBe("在「課程」頁查看");
  });

  it("names several courses with their count and the noun", () => {
    expect(seeAllCourses(getMessages("en"), 2)).toBe("See all 2\u00a0courses");
    expect(seeAllCourses(getMessages("en"), 12)).toBe("See all 12\u00a0courses");
    expect(seeAllCourses(getMessages("zh-TW"), 12)).toBe("查看全部 12\u00a0門課程");
  });
});
