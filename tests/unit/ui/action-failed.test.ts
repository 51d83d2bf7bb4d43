// @vitest-environment happy-dom
/**
 * When an action the member took fails (Sign out in Settings or the header's menu, Revoke access), the
 * place they pressed says so at once (role alert), with the reason in their language; nothing is said before.
 */
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { AccountMenu } from "@/components/layout/account-menu";
import { RevokeConfirmation } from "@/components/settings/revoke-confirmation";
import { SignOutButton } from "@/components/settings/sign-out-button";
import { SignedInSessions } from "@/components/settings/signed-in-sessions";
import { ActionFailedAlert } from "@/components/ui/action-failed-alert";
import { RevokeAccess } from "@/components/settings/revoke-access";
import { ARMING_DELAY_MS } from "@/lib/client/deliberate-click";
import type * as Embedding from "@/lib/client/embedding";
import type { SignedInSessionsBody } from "@/lib/contract/signed-in-sessions";
import type { Locale } from "@/lib/i18n/locales";

import { renderInLocale } from "../../support/render-ui";
import { signedInSessionView } from "../../support/signed-in-session-view";

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn() }) }));
// Whether the dashboard is inside the site's page (a frame): at the top level unless a test says otherwise.
const frame = vi.hoisted(() => ({ inside: false }));
vi.mock("@/lib/client/embedding", async (importOriginal) => ({
  ...(await importOriginal<typeof Embedding>()),
  isInFrame: () => frame.inside,
}));

/** The BFF's answer when the site does not answer: the public error as JSON. */
const siteUnavailable = () =>
  Response.json(
    { error: { code: "site_unavailable", message: "The site did not answer." } },
    { status: 503, statusText: "Service Unavailable" },
  );

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal(
    "fetch",
    vi.fn(() => Promise.resolve(siteUnavailable())),
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  frame.inside = false;
});

function renderWithQueries(node: ReactElement, locale: Locale = "en") {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  renderInLocale(createElement(QueryClientProvider, { client: queryClient }, node), locale);
}

/** Lets the failed request settle (the mutation is scheduled, not run in the click). */
const settle = (ms = 50) => act(() => vi.advanceTimersByTimeAsync(ms));

describe("a failed action says why, where it was pressed", () => {
  it("Sign out in Settings", async () => {
    renderWithQueries(createElement(SignOutButton));
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await settle();
    expect(screen.getByRole("alert").textContent).toBe(
      "You could not be signed out. The site is not available right now. Please try again in a moment.",
    );
  });

  it("Sign out in the header's account menu, in 繁體中文", async () => {
    renderWithQueries(createElement(AccountMenu, { name: "Maya Chen" }), "zh-TW");
    fireEvent.click(screen.getByRole("button", { name: /Maya Chen/ }));
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "登出" }));
    await settle();
    expect(screen.getByRole("alert").textContent).toBe("無法登出。網站目前無法使用，請稍後再試。");
  });

  it("Revoke access, on its confirmation page", async () => {
    renderWithQueries(createElement(RevokeConfirmation, { fromFrame: false }));
    await settle(ARMING_DELAY_MS);
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Yes, revoke" }));
    await settle();
    expect(screen.getByRole("alert").textContent).toBe(
      "Access could not be revoked. The site is not available right now. Please try again in a moment.",
    );
  });

  it.each([
    [
      "en",
      "Revoke access",
      "Your browser blocked the confirmation window. Allow pop-ups for this site, or revoke access in the dashboard in a new tab.",
    ],
    ["zh-TW", "撤銷存取權", "瀏覽器封鎖了確認視窗。請允許此網站開啟彈出式視窗，或在新分頁開啟儀表板後撤銷存取權。"],
  ] as const)("Revoke access in the site's panel, its confirmation window blocked by the browser (%s)", async (locale, button, words) => {
    frame.inside = true;
    const open = vi.fn(() => null);
    vi.stubGlobal("open", open);
    renderWithQueries(createElement(RevokeAccess), locale);
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: button }));
    await settle();
    expect(screen.getByRole("alert").textContent).toBe(words);
    // The window is asked for in the panel's language: its own cookies are not the panel's.
    expect(open).toHaveBeenCalledWith(`/settings/revoke?from=frame&lang=${locale}`, "companion-dashboard-revoke", expect.any(String));
  });

  it("Revoke access in the site's panel, pressed again once pop-ups are allowed: the blocked window is no longer said", async () => {
    frame.inside = true;
    // Blocked the first time; the second time the window opens and waits for the member.
    const open = vi.fn().mockReturnValueOnce(null).mockReturnValue({ closed: false, postMessage: vi.fn() });
    vi.stubGlobal("open", open);
    renderWithQueries(createElement(RevokeAccess));
    fireEvent.click(screen.getByRole("button", { name: "Revoke access" }));
    await settle();
    expect(screen.getByRole("alert").textContent).toMatch(/blocked the confirmation window/);
    fireEvent.click(screen.getByRole("button", { name: "Revoke access" }));
    await settle();
    expect(open).toHaveBeenCalledTimes(2);
    expect(screen.getByRole("status").textContent).not.toBe("");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("Revoke access in the site's panel, its confirmation window closed by the member: nothing is said", async () => {
    frame.inside = true;
    vi.stubGlobal(
      "open",
      vi.fn(() => ({ closed: true, postMessage: vi.fn() })),
    );
    renderWithQueries(createElement(RevokeAccess));
    fireEvent.click(screen.getByRole("button", { name: "Revoke access" }));
    await settle(1_000);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByRole("status").textContent).toBe("");
  });

  it.each([
    ["en", "Revoke access", "The page has loaded. Press Revoke access again to open the confirmation."],
    ["zh-TW", "撤銷存取權", "頁面已載入。請再按一次「撤銷存取權」以開啟確認視窗。"],
  ] as const)(
    "Revoke access in the site's panel, acted on when the press is too old for a window: one more press asked for (%s)",
    async (locale, button, words) => {
      frame.inside = true;
      const open = vi.fn(() => null);
      vi.stubGlobal("open", open);
      // An early press acted on after a long load: the browser no longer counts it as the member's (transient activation).
      Object.defineProperty(navigator, "userActivation", { value: { isActive: false }, configurable: true });
      try {
        renderWithQueries(createElement(RevokeAccess), locale);
        fireEvent.click(screen.getByRole("button", { name: button }));
        await settle();
        expect(open).not.toHaveBeenCalled();
        expect(screen.queryByRole("alert")).toBeNull();
        expect(screen.getByRole("status").textContent).toBe(words);
      } finally {
        Reflect.deleteProperty(navigator, "userActivation");
      }
    },
  );

  it("Sign out there in Where you're signed in: under the row pressed, as its too-soon line is", async () => {
    const list: SignedInSessionsBody = {
      sessions: [
        signedInSessionView("here", "Chrome", true),
        signedInSessionView("phone", "Firefox"),
        signedInSessionView("tablet", "Samsung Internet"),
      ],
    };
    vi.stubGlobal(
      "fetch",
      vi.fn((path: string) => Promise.resolve(path === "/api/sessions" ? Response.json(list) : siteUnavailable())),
    );
    renderWithQueries(createElement(SignedInSessions));
    await settle();
    const [, phone, tablet] = screen.getAllByRole("listitem");
    const foot = screen.getByRole("button", { name: "Sign out everywhere else" }).nextElementSibling!;
    fireEvent.click(screen.getByRole("button", { name: /^Sign out there: Firefox/ }));
    expect(screen.getByRole("status").textContent).toBe(
      "That press came just as this appeared, so nothing was signed out. Press again if you meant it.",
    );
    expect(phone!.contains(screen.getByRole("status"))).toBe(true);
    expect(screen.getByRole("status").closest("[aria-live]")).not.toBeNull();
    await settle(ARMING_DELAY_MS);
    fireEvent.click(screen.getByRole("button", { name: /^Sign out there: Samsung Internet/ }));
    await settle();
    expect(screen.getByRole("alert").textContent).toBe(
      "That could not be done. The site is not available right now. Please try again in a moment.",
    );
    expect(tablet!.contains(screen.getByRole("alert"))).toBe(true);
    expect(screen.queryByRole("status")).toBeNull();
    expect(foot.textContent).toBe("");
    fireEvent.click(screen.getByRole("button", { name: "Sign out everywhere else" }));
    await settle();
    expect(foot.contains(screen.getByRole("alert"))).toBe(true);
    expect(tablet!.querySelector("[role=alert]")).toBeNull();
    // An early press after the failure is answered alone: the alert, now outdated, goes.
    act(() => void window.dispatchEvent(new Event("focus")));
    fireEvent.click(screen.getByRole("button", { name: /^Sign out there: Firefox/ }));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(phone!.contains(screen.getByRole("status"))).toBe(true);
    expect(foot.textContent).toBe("");
  });

  it("says nothing while the action has not failed", () => {
    renderInLocale(createElement(ActionFailedAlert, { error: null, message: "Failed. {reason}" }));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
