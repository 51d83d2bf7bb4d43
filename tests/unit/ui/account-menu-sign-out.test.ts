// @vitest-environment happy-dom
/**
 * Security checklist case 66 and finding 8 of issue 27: inside the site's page (a frame the site controls),
 * the header account menu's Sign out asks first, and the confirmation signs nothing out until the page has
 * been in view for ARMING_DELAY_MS (it looks ready meanwhile, aria-disabled, and an early press says so), so a
 * double-click staged elsewhere cannot sign the member out. At the top level, Sign out acts at once.
 */
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { AccountMenu } from "@/components/layout/account-menu";
import { ARMING_DELAY_MS } from "@/lib/client/deliberate-click";
import { API_ROUTES } from "@/lib/contract/paths";

import { renderInLocale } from "../../support/render-ui";

let fetchSpy: ReturnType<typeof vi.fn>;

beforeEach(() => {
  vi.useFakeTimers();
  // The sign-out request never answers here: the test looks only at whether it was sent.
  fetchSpy = vi.fn(() => new Promise<Response>(() => undefined));
  vi.stubGlobal("fetch", fetchSpy);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderMenu() {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  // The menu's panel is a popover, drawn or not by the browser (happy-dom draws it always): its entries are
  // pressed here as they are once it is open. Opening and closing it is tested in Chromium
  // (tests/e2e/account-menu.spec.ts).
  renderInLocale(createElement(QueryClientProvider, { client: queryClient }, createElement(AccountMenu, { name: "Maya Chen" })));
}

/** Lets the mutation start (it is scheduled, not run in the click). */
const settle = (ms = 50) => act(() => vi.advanceTimersByTimeAsync(ms));

const logoutCalls = () => fetchSpy.mock.calls.filter(([input]) => String(input).includes(API_ROUTES.logout));

describe("Sign out in the header's account menu", () => {
  it("checklist 66: inside a frame, asks first; the confirmation cannot be clicked through before it is armed", async () => {
    vi.spyOn(window, "top", "get").mockReturnValue({} as Window);
    renderMenu();
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));

    const group = screen.getByRole("group", { name: "Sign out of the dashboard in this panel?" });
    const confirm = screen.getByRole("button", { name: "Yes, sign out" });
    expect(group.contains(confirm)).toBe(true);
    // Focus moves to the question, which replaced the button that had it.
    expect(document.activeElement?.textContent).toBe("Sign out of the dashboard in this panel?");
    // Not armed: unavailable to assistive technology, yet not faded (not `disabled`).
    expect(confirm.getAttribute("aria-disabled")).toBe("true");
    expect(confirm).toHaveProperty("disabled", false);
    // The second click of a double-click lands where Sign out was: on the confirmation, not yet armed. It
    // signs nothing out, now or once armed (never queued), and the status line says so.
    fireEvent.click(confirm);
    await settle();
    expect(logoutCalls()).toHaveLength(0);
    expect(screen.getByRole("status").textContent).toMatch(/^That press came just as this appeared, so nothing was signed out\./);

    await settle(ARMING_DELAY_MS);
    expect(logoutCalls()).toHaveLength(0);
    expect(confirm.getAttribute("aria-disabled")).toBeNull();
    fireEvent.click(confirm);
    await settle();
    expect(logoutCalls()).toHaveLength(1);
  });

  it("checklist 66: inside a frame, a press just after the window regains focus signs nothing out", async () => {
    vi.spyOn(window, "top", "get").mockReturnValue({} as Window);
    renderMenu();
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await settle(ARMING_DELAY_MS);
    const confirm = screen.getByRole("button", { name: "Yes, sign out" });
    // Raised under the pointer by another window: the press in the same moment is judged by the window's
    // focus, not by the last render.
    act(() => {
      window.dispatchEvent(new Event("focus"));
      fireEvent.click(confirm);
    });
    await settle();
    expect(logoutCalls()).toHaveLength(0);
    expect(screen.getByRole("status").textContent).toMatch(/nothing was signed out/);
  });

  it("checklist 66: inside a frame, Cancel returns to the menu's Sign out, with focus, without signing out", async () => {
    vi.spyOn(window, "top", "get").mockReturnValue({} as Window);
    renderMenu();
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    const signOut = screen.getByRole("button", { name: "Sign out" });
    expect(document.activeElement).toBe(signOut);
    await settle(ARMING_DELAY_MS * 2);
    expect(logoutCalls()).toHaveLength(0);
  });

  it("at the top level, signs out at once", async () => {
    renderMenu();
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    expect(screen.queryByRole("button", { name: "Yes, sign out" })).toBeNull();
    await settle();
    expect(logoutCalls()).toHaveLength(1);
  });
});
