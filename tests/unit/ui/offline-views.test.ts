// @vitest-environment happy-dom
/**
 * The views of pages opened offline are not in any page's first load (issue 26): they are fetched once
 * the page is idle, so a tap made offline later shows a seen page at once; a view that could not be
 * fetched before the connection dropped says so truthfully, with Retry, and the app stays.
 */
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { OfflineNavigation, OfflineOutlet } from "@/components/layout/offline-navigation";
import { accountKeys } from "@/lib/client/keys";

import { renderInLocale } from "../../support/render-ui";

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn() }), usePathname: () => "/" }));
vi.mock("@/components/courses/courses-view", () => ({ CoursesView: () => createElement("p", null, "The courses view") }));
vi.mock("@/components/orders/orders-view", () => {
  throw new Error("the view's chunk could not be fetched");
});

function renderShell() {
  const queryClient = new QueryClient();
  queryClient.setQueryData(accountKeys.page("courses"), { items: [] });
  queryClient.setQueryData(accountKeys.page("orders"), { items: [] });
  renderInLocale(
    createElement(
      QueryClientProvider,
      { client: queryClient },
      createElement(
        OfflineNavigation,
        null,
        createElement("a", { href: "/courses" }, "Courses"),
        createElement("a", { href: "/orders" }, "Orders"),
        createElement(OfflineOutlet, null, createElement("p", null, "The router's page")),
      ),
    ),
  );
}

/** The shell, left idle long enough to fetch the offline views; then the connection drops and a link is tapped. */
async function tapOfflineOnceIdle(link: string) {
  renderShell();
  await act(async () => {
    await vi.advanceTimersByTimeAsync(3_000);
  });
  goOffline();
  act(() => {
    fireEvent.click(screen.getByRole("link", { name: link }));
  });
}

function goOffline() {
  Object.defineProperty(navigator, "onLine", { configurable: true, get: () => false });
  window.dispatchEvent(new Event("offline"));
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  Object.defineProperty(navigator, "onLine", { configurable: true, get: () => true });
});

describe("offline views", () => {
  it("are fetched once the page is idle, so a seen page opened offline shows at once with when it was seen", async () => {
    await tapOfflineOnceIdle("Courses");
    // Rendered in the same pass as the tap: no frame without the page, no network needed.
    expect(screen.getByText("The courses view")).toBeTruthy();
    expect(screen.getByRole("status").textContent).toMatch(/^Offline: showing what you saw at /);
  });

  it("say truthfully that a seen page was not ready for offline use when its view could not be fetched, with Retry", async () => {
    await tapOfflineOnceIdle("Orders");
    // Its view is asked for once more (it was not preloaded), and cannot be had.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(screen.getByRole("heading", { name: "You're offline" })).toBeTruthy();
    expect(
      screen.getByText(
        "This page was not ready for offline use when your connection dropped. It loads as soon as your connection is back.",
      ),
    ).toBeTruthy();
    expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy();
    expect(screen.queryByText(/not opened while you were online/)).toBeNull();
  });
});
