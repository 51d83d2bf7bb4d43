import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as accountRoute } from "@/app/api/account/[resource]/route";
import { COURSES_PAGE_SIZE, readEnrollments } from "@/lib/account-api/pages/courses";
import { callWithMemberSession } from "@/lib/auth/member-session";
import { enrollmentKey } from "@/lib/account-api/fragments";
import { collectPages } from "@/lib/account-api/paging";
import { CookieBuffer, requestResponseJar } from "@/lib/session/cookie-jar";
import type { CoursesPage } from "@/lib/types/account";
import { getAccountData } from "@/sandbox/data/account";
import { type RunningSandbox } from "@/sandbox/server";

import { startSandboxForDashboard } from "../support/dashboard-sandbox";
import { RouteBrowser, signInThroughRoutes } from "../support/route-browser";

const KAI = "kai@example.com";
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandboxForDashboard();
});
afterAll(async () => sandbox.close());
beforeEach(() => sandbox.resetRequests());

async function signedInAs(email: string): Promise<RouteBrowser> {
  const browser = new RouteBrowser();
  await signInThroughRoutes(browser, { email, returnTo: "/courses" });
  return browser;
}

function graphqlRequests(): number {
  return sandbox.requests().filter((entry) => entry.endpoint === "graphql").length;
}

describe("the Courses data route over all enrollments", () => {
  it("reads every one of the 130-course member's enrollments, following the site's pages of 50", async () => {
    const expected = getAccountData(KAI, Date.now()).enrollments.map((enrollment) => enrollment.slug);
    const browser = await signedInAs(KAI);
    sandbox.resetRequests();
    const response = await accountRoute(browser.request("/api/account/courses"), { params: Promise.resolve({ resource: "courses" }) });
    expect(response.status).toBe(200);
    const page = (await response.json()) as CoursesPage;
    expect(page.items.map((course) => course.slug)).toEqual(expected);
    expect(page.totalCount).toBe(expected.length);
    expect(page.nextCursor).toBeNull();
    expect(graphqlRequests()).toBe(Math.ceil(expected.length / COURSES_PAGE_SIZE));
  });

  it("stops at its bound, says where, and goes on from there", async () => {
    const expected = getAccountData(KAI, Date.now()).enrollments.map((enrollment) => enrollment.slug);
    const browser = await signedInAs(KAI);
    const request = browser.request("/api/account/courses");
    const firsts: number[] = [];
    const { first, rest } = await callWithMemberSession(requestResponseJar(request.cookies, new CookieBuffer()), async (accessToken) => {
      const fetchPage = (pageSize: number, after: string | null) => {
        firsts.push(pageSize);
        return readEnrollments(accessToken, pageSize, after);
      };
      const bounded = await collectPages({ fetchPage, keyOf: enrollmentKey, maxItems: 60, pageSize: COURSES_PAGE_SIZE });
      return {
        first: bounded,
        rest: await collectPages({
          fetchPage,
          keyOf: enrollmentKey,
          maxItems: 500,
          pageSize: COURSES_PAGE_SIZE,
          after: bounded.nextCursor,
        }),
      };
    });
    expect(first.nodes.map((node) => node.slug)).toEqual(expected.slice(0, 60));
    expect(first.nextCursor).not.toBeNull();
    expect(first.totalCount).toBe(expected.length);
    // Never more than a modest page, and never past the bound.
    expect(firsts.slice(0, 2)).toEqual([COURSES_PAGE_SIZE, 60 - COURSES_PAGE_SIZE]);
    expect(Math.max(...firsts)).toBeLessThanOrEqual(COURSES_PAGE_SIZE);
    expect([...first.nodes, ...rest.nodes].map((node) => node.slug)).toEqual(expected);
    expect(rest.nextCursor).toBeNull();
  });
});
