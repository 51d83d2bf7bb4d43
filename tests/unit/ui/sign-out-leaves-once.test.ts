// @vitest-environment happy-dom
/**
 * After Sign out or Revoke access the page leaves once, for where the BFF's answer says: the site's
 * end-session endpoint or the signed-out page. A query that refetches meanwhile gets 401 (the session it
 * read has just ended); sending the browser to sign in then would cancel the navigation under way, and a
 * member who signed out would land on the site's sign-in page.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { API_ROUTES } from "@/lib/contract/paths";

/**
 * The modules a page runs, loaded afresh for each test: whether the page has begun to leave is the
 * state of one page load (a module variable), and every test is a page load of its own.
 */
async function freshPage() {
  vi.resetModules();
  const [testingLibrary, reactQuery, react, signOutButton, hooks, api, renderUi] = await Promise.all([
    import("@testing-library/react"),
    import("@tanstack/react-query"),
    import("react"),
    import("@/components/settings/sign-out-button"),
    import("@/lib/client/hooks"),
    import("@/lib/client/api"),
    import("../../support/render-ui"),
  ]);
  return { ...testingLibrary, ...reactQuery, ...react, ...signOutButton, ...hooks, ...api, ...renderUi };
}

const END_SESSION_URL = "https://school.example.com/oauth/logout?state=s";

let navigations: { how: "assign" | "replace"; url: string }[];

beforeEach(() => {
  navigations = [];
  vi.spyOn(window, "location", "get").mockReturnValue({
    origin: "http://localhost:3000",
    pathname: "/settings",
    search: "",
    assign: (url: string) => navigations.push({ how: "assign", url }),
    replace: (url: string) => navigations.push({ how: "replace", url }),
    reload: () => navigations.push({ how: "replace", url: "reload" }),
  } as unknown as Location);
  // The account page answers until the BFF ends the session, then 401 like the real routes.
  let signedIn = true;
  vi.stubGlobal(
    "fetch",
    vi.fn((path: string) => {
      if (path === API_ROUTES.logout || path === API_ROUTES.revoke) {
        signedIn = false;
        return Promise.resolve(Response.json({ signedOut: true, complete: true, endSessionUrl: END_SESSION_URL }));
      }
      if (!signedIn) return Promise.resolve(Response.json({ error: { code: "unauthenticated", message: "" } }, { status: 401 }));
      return Promise.resolve(Response.json({ courses: [] }));
    }),
  );
});
afterEach(async () => {
  (await import("@testing-library/react")).cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function endSessionWith(action: "sign out" | "revoke"): Promise<void> {
  const page = await freshPage();
  /** Shows account data and offers one way to end the session; the action's state re-renders it, refetching the cleared query. */
  function PageWith() {
    page.useAccountPage("overview");
    const signOut = page.useSignOutFlow();
    const revoke = page.useRevokeAccess();
    const onClick =
      action === "sign out" ? signOut.start : () => revoke.mutate(undefined, { onSuccess: () => page.leaveForSignedOutPage("revoked") });
    return page.createElement("button", { type: "button", onClick }, action);
  }
  const queryClient = new page.QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  page.renderInLocale(page.createElement(page.QueryClientProvider, { client: queryClient }, page.createElement(PageWith)));
  await vi.waitFor(() => expect(queryClient.getQueryState(["account", "overview"])?.status).toBe("success"));
  page.fireEvent.click(page.screen.getByRole("button", { name: action }));
  // Until the refetched query has had its 401 answer, and a little after.
  await vi.waitFor(() => expect(queryClient.getQueryState(["account", "overview"])?.status).toBe("error"));
  await page.act(() => new Promise((resolve) => setTimeout(resolve, 20)));
}

describe("ending the session here leaves the page once", () => {
  it("Sign out goes to the site's end-session endpoint, not to sign in", async () => {
    await endSessionWith("sign out");
    expect(navigations).toEqual([{ how: "replace", url: END_SESSION_URL }]);
  });

  it("Revoke access goes to the signed-out page, not to sign in", async () => {
    await endSessionWith("revoke");
    expect(navigations).toEqual([{ how: "replace", url: "http://localhost:3000/signed-out?reason=revoked" }]);
  });
});
