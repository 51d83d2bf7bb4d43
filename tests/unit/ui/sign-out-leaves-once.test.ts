// @vitest-environment happy-dom
/**
 * After Sign out or Revoke access the page leaves once, for where the BFF's answer says: the site's
 * end-session endpoint or the signed-out page. A query that refetches meanwhile gets 401 (the session it
 * read has just ended); sending the browser to sign in then would cancel the navigation under way, and a
 * member who signed out would land on the site's sign-in page. The page still leaves when the button that
 * asked has gone meanwhile, and a 401 still sends it to sign in when Sign out failed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { API_ROUTES } from "@/lib/contract/paths";

import { recordNavigations, type RecordedNavigation } from "../../support/recorded-navigations";

/**
 * The modules a page runs, loaded afresh for each test: how the page has begun to leave is the state of
 * one page load (a module variable), and every test is a page load of its own.
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

const END_SESSION_URL = "/api/auth/end-session?ticket=Fe26.2*x";
const SIGNED_OUT = (reason: string) => `http://localhost:3000/signed-out?reason=${reason}`;

let navigations: RecordedNavigation[];

beforeEach(() => {
  navigations = recordNavigations("/settings");
});
afterEach(async () => {
  (await import("@testing-library/react")).cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** How the BFF answers Sign out or Revoke access: it ends the session, fails, refuses the revocation, or waits for `held`. */
type EndingAnswer = "ends the session" | "fails" | "revocation refused" | { held: Promise<void> };

/**
 * The BFF: the account page answers while the session lasts, then 401 like the real routes
 * (`withdrawnAfter`: with `access_withdrawn` once that many plain 401s were sent).
 */
function stubBff(ending: EndingAnswer = "ends the session", options: { signedIn?: boolean; withdrawnAfter?: number } = {}) {
  let signedIn = options.signedIn ?? true;
  let plain401s = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string) => {
      if (path === API_ROUTES.logout || path === API_ROUTES.revoke) {
        if (ending === "fails") return Response.json({ error: { code: "site_unavailable", message: "" } }, { status: 502 });
        if (typeof ending === "object") await ending.held;
        signedIn = false;
        if (ending === "revocation refused") return Response.json({ error: { code: "revocation_refused", message: "" } }, { status: 502 });
        return Response.json({ signedOut: true, complete: true, endSessionUrl: END_SESSION_URL });
      }
      if (signedIn) return Response.json({ courses: [] });
      if (options.withdrawnAfter !== undefined && plain401s >= options.withdrawnAfter) {
        return Response.json({ error: { code: "unauthenticated", message: "", detail: "access_withdrawn" } }, { status: 401 });
      }
      plain401s += 1;
      return Response.json({ error: { code: "unauthenticated", message: "" } }, { status: 401 });
    }),
  );
  return { endSession: () => (signedIn = false) };
}

/**
 * A page showing account data, with Sign out and Revoke access in a part the member can leave (as a nav
 * link replaces Settings).
 */
async function renderPage() {
  const page = await freshPage();
  function Actions() {
    // Shows account data too: the actions' state re-renders it, which refetches the query they cleared.
    page.useAccountPage("overview");
    const signOut = page.useSignOutFlow();
    const revoke = page.useRevokeAccess();
    return page.createElement(
      "div",
      null,
      page.createElement("button", { type: "button", onClick: signOut.start }, "sign out"),
      page.createElement("button", { type: "button", onClick: () => revoke.mutate() }, "revoke"),
    );
  }
  function Page() {
    page.useAccountPage("overview");
    const [actionsShown, setActionsShown] = page.useState(true);
    return page.createElement(
      "div",
      null,
      actionsShown ? page.createElement(Actions) : null,
      page.createElement("button", { type: "button", onClick: () => setActionsShown(false) }, "leave settings"),
    );
  }
  const queryClient = new page.QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  page.renderInLocale(page.createElement(page.QueryClientProvider, { client: queryClient }, page.createElement(Page)));
  await vi.waitFor(() => expect(queryClient.getQueryState(["account", "overview"])?.status).toBe("success"));
  const click = (name: string) => page.fireEvent.click(page.screen.getByRole("button", { name }));
  /** Until the refetched query has had its 401 answer, and a little after. */
  const untilRefetchFailed = async () => {
    await vi.waitFor(() => expect(queryClient.getQueryState(["account", "overview"])?.status).toBe("error"));
    await page.act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  };
  return { page, queryClient, click, untilRefetchFailed };
}

describe("ending the session here leaves the page once", () => {
  it("Sign out goes to the site's end-session endpoint, not to sign in", async () => {
    stubBff();
    const { click, untilRefetchFailed } = await renderPage();
    click("sign out");
    await untilRefetchFailed();
    expect(navigations).toEqual([{ how: "replace", url: END_SESSION_URL }]);
  });

  it("Revoke access goes to the signed-out page, not to sign in", async () => {
    stubBff();
    const { click, untilRefetchFailed } = await renderPage();
    click("revoke");
    await untilRefetchFailed();
    expect(navigations).toEqual([{ how: "replace", url: SIGNED_OUT("revoked") }]);
  });

  it("a revocation the site refused goes to the signed-out page that says so, not to sign in", async () => {
    stubBff("revocation refused");
    const { click, untilRefetchFailed } = await renderPage();
    click("revoke");
    await untilRefetchFailed();
    expect(navigations).toEqual([{ how: "replace", url: SIGNED_OUT("revoke_refused") }]);
  });

  it.each(["sign out", "revoke"])("%s still leaves when its button has gone before the BFF answered", async (action) => {
    let release = () => {};
    stubBff({ held: new Promise<void>((resolve) => (release = resolve)) });
    const { page, click } = await renderPage();
    click(action);
    click("leave settings");
    release();
    await page.act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(navigations).toEqual([{ how: "replace", url: action === "sign out" ? END_SESSION_URL : SIGNED_OUT("revoked") }]);
  });

  it("a Sign out that failed leaves the page as it was: a 401 later still goes to sign in", async () => {
    const bff = stubBff("fails");
    const { page, queryClient, click, untilRefetchFailed } = await renderPage();
    click("sign out");
    await vi.waitFor(() => expect(queryClient.getMutationCache().getAll()[0]?.state.status).toBe("error"));
    bff.endSession();
    await page.act(() => queryClient.invalidateQueries());
    await untilRefetchFailed();
    expect(navigations).toEqual([{ how: "assign", url: "/api/auth/login?returnTo=%2Fsettings" }]);
  });
});

describe("access withdrawn by the site", () => {
  it("takes over from a sign-in another query's 401 began: the member is told why", async () => {
    stubBff("ends the session", { signedIn: false, withdrawnAfter: 1 });
    const { getJson } = await freshPage();
    await getJson("/api/account/overview").catch(() => undefined);
    await getJson("/api/account/overview").catch(() => undefined);
    expect(navigations).toEqual([
      { how: "assign", url: "/api/auth/login?returnTo=%2Fsettings" },
      { how: "replace", url: `${SIGNED_OUT("access_withdrawn")}&returnTo=%2Fsettings` },
    ]);
  });

  it("never takes over from where this page's own Sign out is going", async () => {
    stubBff("ends the session", { signedIn: false, withdrawnAfter: 0 });
    const { getJson, sessionEndedHere } = await freshPage();
    sessionEndedHere();
    await getJson("/api/account/overview").catch(() => undefined);
    expect(navigations).toEqual([]);
  });
});
