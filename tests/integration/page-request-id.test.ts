/**
 * A page request has one id, as a data request does (lib/http/request-log.ts): the proxy keeps a
 * well-formed X-Request-Id or makes one, logs its refresh with it, hands it to the render in the request's
 * headers and answers it in X-Request-Id; the render logs the site's answer with it. An operator finds
 * what a member's page view did from the id the member's browser received.
 */
import { NextRequest } from "next/server";
import { beforeEach, describe, expect, it, vi } from "vitest";

import CoursesPage from "@/app/(member)/courses/page";
import { getSiteNameForRender, resetSiteNameCacheForTests } from "@/lib/auth/site-name";
import { sessionCookieName } from "@/lib/session/session";
import { proxy } from "@/proxy";

import { captureLog } from "../support/captured-log";
import { setUpDashboardOnFakeSite } from "../support/dashboard-on-fake-site";
import { TEST_APP_URL } from "../support/env";
import { runAfterResponse } from "../support/after-response";
import { requestHeaders } from "../support/request-headers";
import { sessionCookie } from "../support/session-fixture";

vi.mock("next/headers", () => import("../support/request-headers"));
vi.mock("next/server", async (real) => ({ ...(await real<object>()), ...(await import("../support/after-response")) }));

const site = setUpDashboardOnFakeSite();

beforeEach(() => {
  site.handlers.set("POST /api/oauth/token", () => ({
    json: { access_token: "at-1", token_type: "Bearer", expires_in: 7200, refresh_token: "rt-1", scope: "openid account:read" },
  }));
  site.handlers.set("POST /account/graphql", () => ({ status: 200, json: { errors: [{ message: "Internal server error" }] } }));
});

/** The request headers the proxy hands to the page's render (Next.js carries them as x-middleware-request-*). */
function forwardedRequestId(response: Response): string | null {
  return response.headers.get("x-middleware-request-x-request-id");
}

/** Sends a document request for /courses through the proxy, then renders the page with what the proxy handed on. */
async function viewCourses(incomingId?: string): Promise<{ answered: string | null; forwarded: string | null }> {
  const cookie = await sessionCookie();
  const headers = {
    cookie,
    "sec-fetch-dest": "document",
    "sec-fetch-mode": "navigate",
    ...(incomingId ? { "x-request-id": incomingId } : {}),
  };
  const response = await proxy(new NextRequest(`${TEST_APP_URL}/courses`, { headers }));
  const forwarded = forwardedRequestId(response);
  const refreshed = response.cookies.get(sessionCookieName())?.value;
  requestHeaders.current = new Headers({
    cookie: `${sessionCookieName()}=${refreshed ?? cookie.split("=")[1]}`,
    ...(forwarded ? { "x-request-id": forwarded } : {}),
  });
  await CoursesPage({ searchParams: Promise.resolve({}) });
  return { answered: response.headers.get("x-request-id"), forwarded };
}

describe("a page request's id", () => {
  it("is checked again by the render: a malformed id that reached it is never logged", async () => {
    const log = captureLog();
    requestHeaders.current = new Headers({ cookie: await sessionCookie(), "x-request-id": "two words; level=error" });
    await CoursesPage({ searchParams: Promise.resolve({}) });
    await runAfterResponse();
    const ids = log
      .events()
      .filter((event) => event.event === "site_error" || event.event === "page_view")
      .map((event) => event.requestId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toBe(ids[0]);
  });

  it("keeps a well-formed id: in the answer, in what the proxy logs and in what the render logs", async () => {
    const log = captureLog();
    const { answered, forwarded } = await viewCourses("lb-4711");
    expect(answered).toBe("lb-4711");
    expect(forwarded).toBe("lb-4711");
    const refreshed = log.events().find((event) => event.event === "token_refreshed");
    const failed = log.events().find((event) => event.event === "site_error");
    expect(refreshed?.requestId).toBe("lb-4711");
    expect(failed).toMatchObject({ requestId: "lb-4711", errorCode: "query_failed" });
  });

  it("is on what the layout's read of the site's name logs", async () => {
    resetSiteNameCacheForTests();
    // An answer over the cap of an OAuth answer: the site call fails and leaves its one site_error line.
    site.handlers.set("GET /.well-known/oauth-protected-resource", () => ({ json: { resource: site.url, padding: "x".repeat(100_000) } }));
    const log = captureLog();
    requestHeaders.current = new Headers({ cookie: await sessionCookie(), "x-request-id": "lb-4712" });
    expect(await getSiteNameForRender()).toBeNull();
    const failed = log.events().filter((event) => event.event === "site_error");
    expect(failed).toEqual([expect.objectContaining({ endpoint: "/.well-known/oauth-protected-resource", requestId: "lb-4712" })]);
  });

  it.each([
    ["none", undefined],
    ["a malformed one", "two words; level=error"],
  ])("with %s, makes one and uses it throughout", async (_name, incoming) => {
    const log = captureLog();
    const { answered, forwarded } = await viewCourses(incoming);
    expect(answered).toMatch(/^[0-9a-f-]{36}$/);
    expect(forwarded).toBe(answered);
    const ids = log
      .events()
      .filter((event) => event.event === "token_refreshed" || event.event === "site_error")
      .map((event) => event.requestId);
    expect(ids).toEqual([answered, answered]);
  });
});
