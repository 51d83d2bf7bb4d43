// @vitest-environment happy-dom
/**
 * What the browser does when the BFF says the session is gone: it leaves once, for sign-in (the panel
 * reloads into its own sign-in instead), or for the signed-out page when the site withdrew the app's
 * access, whichever answer came first among the page's queries.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { recordNavigations, type RecordedNavigation } from "../../support/recorded-navigations";

/** The client's modules afresh: how the page has begun to leave is the state of one page load. */
async function freshPage() {
  vi.resetModules();
  return import("@/lib/client/api");
}

let navigations: RecordedNavigation[];

beforeEach(() => {
  navigations = recordNavigations("/orders");
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function answers(...bodies: { status: number; code: string; detail?: string }[]) {
  const queue = [...bodies];
  vi.stubGlobal(
    "fetch",
    vi.fn(() => {
      const { status, code, detail } = queue.shift()!;
      return Promise.resolve(Response.json({ error: { code, message: "", ...(detail ? { detail } : {}) } }, { status }));
    }),
  );
}

const UNAUTHENTICATED = { status: 401, code: "unauthenticated" };
const WITHDRAWN = { status: 401, code: "unauthenticated", detail: "access_withdrawn" };

describe("a page whose session is gone", () => {
  it("goes to sign in once, however many of its queries are answered 401", async () => {
    const { getJson } = await freshPage();
    answers(UNAUTHENTICATED, UNAUTHENTICATED);
    await Promise.all([getJson("/api/account/orders").catch(() => undefined), getJson("/api/account/events").catch(() => undefined)]);
    expect(navigations).toEqual([{ how: "assign", url: "/api/auth/login?returnTo=%2Forders" }]);
  });

  it("in the site's panel, reloads into the panel's own sign-in instead (the site's sign-in page is never framed)", async () => {
    vi.spyOn(window, "top", "get").mockReturnValue({} as Window);
    const { getJson } = await freshPage();
    answers(UNAUTHENTICATED);
    await getJson("/api/account/orders").catch(() => undefined);
    expect(navigations).toEqual([{ how: "reload", url: "reload" }]);
  });

  it("says the access was withdrawn, once, even when a plain 401 of another query follows", async () => {
    const { getJson } = await freshPage();
    answers(WITHDRAWN, UNAUTHENTICATED);
    await getJson("/api/account/orders").catch(() => undefined);
    await getJson("/api/account/events").catch(() => undefined);
    expect(navigations).toEqual([{ how: "replace", url: "http://localhost:3000/signed-out?reason=access_withdrawn&returnTo=%2Forders" }]);
  });

  it("does not leave for a refusal that only carries the same detail (a 403)", async () => {
    const { getJson } = await freshPage();
    answers({ status: 403, code: "insufficient_scope", detail: "access_withdrawn" });
    await getJson("/api/account/orders").catch(() => undefined);
    expect(navigations).toEqual([]);
  });
});

describe("the signed-out page's address", () => {
  it("names the page to sign in again to, unless it is the Overview, where Sign in leads anyway", async () => {
    const { signedOutPath } = await import("@/lib/contract/paths");
    expect(signedOutPath("expired", "/orders?page=2")).toBe("/signed-out?reason=expired&returnTo=%2Forders%3Fpage%3D2");
    expect(signedOutPath("expired", "/")).toBe("/signed-out?reason=expired");
    expect(signedOutPath("revoked")).toBe("/signed-out?reason=revoked");
  });
});
