// @vitest-environment happy-dom
/**
 * A member's action tapped offline says so at once and is never done later unasked: Sign out fails with
 * "could not be reached" (TanStack Query would otherwise hold it until the connection returns, then sign
 * the member out by itself), Revoke access does not open its confirmation page (the browser would show its
 * own error page), and "Add to calendar" says the dashboard could not be reached when the calendar code was not
 * fetched yet.
 * The calendar code is fetched ahead once the page is idle, so that a tap made offline later still works.
 */
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { onlineManager, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { RevokeAccess } from "@/components/settings/revoke-access";
import { SignOutButton } from "@/components/settings/sign-out-button";
import { CalendarFileButton } from "@/components/ui/calendar-file-button";
import { makeQueryClient } from "@/lib/client/query-client";
import { API_ROUTES, PAGE_PATHS } from "@/lib/contract/paths";

import { renderInLocale } from "../../support/render-ui";

const push = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ push }) }));

const calendarCode = vi.hoisted(() => ({ loaded: false }));
vi.mock("@/lib/format/ics", () => {
  calendarCode.loaded = true;
  return {};
});

let online = true;
let fetchSpy: ReturnType<typeof vi.fn>;

beforeEach(() => {
  online = true;
  push.mockReset();
  Object.defineProperty(window.navigator, "onLine", { configurable: true, get: () => online });
  // As a browser offline: the request never leaves.
  fetchSpy = vi.fn(() => (online ? Promise.resolve(Response.json({ signedOut: true })) : Promise.reject(new TypeError("Failed to fetch"))));
  vi.stubGlobal("fetch", fetchSpy);
});
afterEach(() => {
  cleanup();
  onlineManager.setOnline(true);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function goOffline(): void {
  online = false;
  onlineManager.setOnline(false);
}

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

describe("tapped offline", () => {
  it("Sign out says it could not reach the dashboard, and does nothing when the connection returns", async () => {
    const location = vi.spyOn(window, "location", "get");
    renderInLocale(createElement(QueryClientProvider, { client: makeQueryClient() }, createElement(SignOutButton)));
    goOffline();
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "You could not be signed out. The dashboard could not be reached. Check your connection and try again.",
    );
    expect(screen.getByRole("button", { name: "Sign out" })).toHaveProperty("disabled", false);

    online = true;
    act(() => onlineManager.setOnline(true));
    await settle();
    // The one attempt made when tapped; none later, and the page stays.
    expect(fetchSpy.mock.calls.filter(([input]) => String(input).includes(API_ROUTES.logout))).toHaveLength(1);
    expect(location).not.toHaveBeenCalled();
  });

  it("Revoke access stays on Settings and says why; online, it opens the confirmation", async () => {
    renderInLocale(createElement(QueryClientProvider, { client: makeQueryClient() }, createElement(RevokeAccess)), "zh-TW");
    goOffline();
    fireEvent.click(screen.getByRole("button", { name: "撤銷存取權" }));
    await settle();
    expect(push).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toMatch(/^無法撤銷存取權。.+連線/);

    online = true;
    fireEvent.click(screen.getByRole("button", { name: "撤銷存取權" }));
    await settle();
    expect(push).toHaveBeenCalledWith(PAGE_PATHS.revoke);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("Add to calendar says the dashboard could not be reached when offline; online, that something went wrong", async () => {
    const makeFile = vi.fn(() => Promise.reject(new TypeError("Failed to fetch dynamically imported module")));
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    renderInLocale(createElement(CalendarFileButton, { label: "Add to calendar", subject: "Workshop", makeFile }));
    goOffline();
    fireEvent.click(screen.getByRole("button", { name: /^Add to calendar/ }));
    expect((await screen.findByRole("alert")).textContent).toBe("The dashboard could not be reached. Check your connection and try again.");
    online = true;
    fireEvent.click(screen.getByRole("button", { name: /^Add to calendar/ }));
    await vi.waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Something went wrong. Please try again."));
  });
});

it("the calendar code is fetched once the page with a calendar button is idle, before any tap", async () => {
  vi.useFakeTimers();
  try {
    renderInLocale(createElement(CalendarFileButton, { label: "Add to calendar", subject: "Workshop", makeFile: vi.fn() }));
    expect(calendarCode.loaded).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    await vi.waitFor(() => expect(calendarCode.loaded).toBe(true));
  } finally {
    vi.useRealTimers();
  }
});
