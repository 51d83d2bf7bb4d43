// @vitest-environment happy-dom
/**
 * Security checklist case 68 (RFC 9700 section 4.17; ASVS 3.5.5): the sign-in popup hands its one-time
 * code to the embedded frame that opened it by postMessage addressed to exactly our origin, never "*";
 * the frame accepts a message only from exactly our origin, and, separately, only from the popup it opened.
 * Real happy-dom windows; happy-dom drops (throws on) a message whose targetOrigin the recipient does not have.
 */
import { cleanup, screen, waitFor } from "@testing-library/react";
import { Window as HappyWindow } from "happy-dom";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { PopupDone } from "@/components/layout/popup-done";
import { HANDOFF_ACK_TIMEOUT_MS, notifyOpener, openPopupAndAwait, RECEIVED_MESSAGE, SIGNED_IN_MESSAGE } from "@/lib/client/embedding";

import { renderInLocale } from "../../support/render-ui";

type SignedIn = { type: string; code: string };

const openedWindows: HappyWindow[] = [];
function windowAt(url: string): HappyWindow {
  const opened = new HappyWindow({ url });
  openedWindows.push(opened);
  return opened;
}

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await Promise.all(openedWindows.splice(0).map((opened) => opened.happyDOM.close()));
});

/** The opener the popup sees (window.opener), a real window. */
function withOpener(opener: HappyWindow | null) {
  vi.spyOn(window, "opener", "get").mockReturnValue(opener);
}

/** Messages that reach a window, read after happy-dom's asynchronous delivery. */
function received(target: HappyWindow): unknown[] {
  const data: unknown[] = [];
  target.addEventListener("message", (event) => data.push((event as unknown as MessageEvent).data));
  return data;
}

const delivery = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("checklist 68: the popup posts to the exact origin of the dashboard, never '*'", () => {
  it("checklist 68: notifyOpener addresses window.location.origin exactly; an opener at our origin gets the code", async () => {
    const opener = windowAt(`${window.location.origin}/overview`);
    const post = vi.spyOn(opener, "postMessage");
    const inbox = received(opener);
    withOpener(opener);

    expect(notifyOpener({ type: SIGNED_IN_MESSAGE, code: "handoff-1" })).toBe(true);
    expect(post).toHaveBeenCalledTimes(1);
    expect(post.mock.calls[0]![1]).toBe(window.location.origin);
    expect(post.mock.calls[0]![1]).not.toBe("*");
    await delivery();
    expect(inbox).toEqual([{ type: SIGNED_IN_MESSAGE, code: "handoff-1" }]);
  });

  it("checklist 68: an opener that navigated to another origin never receives the code", async () => {
    const opener = windowAt("https://evil.example/phish");
    const inbox = received(opener);
    withOpener(opener);

    try {
      notifyOpener({ type: SIGNED_IN_MESSAGE, code: "handoff-2" });
    } catch {
      // A browser drops the message silently; happy-dom throws a SecurityError. Either way it is not delivered.
    }
    await delivery();
    expect(inbox).toEqual([]);
  });

  it("checklist 68: without an opener nothing is posted and the page offers its own link", () => {
    withOpener(null);
    expect(notifyOpener({ type: SIGNED_IN_MESSAGE, code: "handoff-3" })).toBe(false);
  });
});

describe("checklist 68: the frame accepts the popup's message only from our origin and from the popup it opened", () => {
  /** Opens the "popup" (a real window at our origin) and returns it with the frame's pending result. */
  function openPopup() {
    const popup = windowAt(`${window.location.origin}/popup-done`);
    vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
    const { result } = openPopupAndAwait<SignedIn>("/api/auth/login?display=popup", "sign-in", SIGNED_IN_MESSAGE);
    return { popup, result };
  }

  function post(data: unknown, origin: string, source: unknown) {
    window.dispatchEvent(new window.MessageEvent("message", { data, origin, source: source as MessageEventSource }));
  }

  it("checklist 68: resolves with the message of our origin from the popup, and tells the popup, at our origin, it took it", async () => {
    const { popup, result } = openPopup();
    const answer = vi.spyOn(popup, "postMessage");
    post({ type: SIGNED_IN_MESSAGE, code: "from-popup" }, window.location.origin, popup);
    await expect(result).resolves.toEqual({ type: SIGNED_IN_MESSAGE, code: "from-popup" });
    expect(answer.mock.calls).toEqual([[{ type: RECEIVED_MESSAGE, of: SIGNED_IN_MESSAGE }, window.location.origin]]);
  });

  it("checklist 68: ignores a message from another origin, even when its source is the popup", async () => {
    const { popup, result } = openPopup();
    post({ type: SIGNED_IN_MESSAGE, code: "forged-origin" }, "https://evil.example", popup);
    post({ type: SIGNED_IN_MESSAGE, code: "from-popup" }, window.location.origin, popup);
    await expect(result).resolves.toMatchObject({ code: "from-popup" });
  });

  it("checklist 68: ignores a message from our origin sent by another window than the popup (the source check on its own)", async () => {
    const { popup, result } = openPopup();
    const otherTab = windowAt(`${window.location.origin}/courses`);
    post({ type: SIGNED_IN_MESSAGE, code: "other-window" }, window.location.origin, otherTab);
    post({ type: SIGNED_IN_MESSAGE, code: "no-source" }, window.location.origin, null);
    post({ type: SIGNED_IN_MESSAGE, code: "from-popup" }, window.location.origin, popup);
    await expect(result).resolves.toMatchObject({ code: "from-popup" });
  });

  it("checklist 68: ignores a message of another type from the popup", async () => {
    const { popup, result } = openPopup();
    post({ type: "companion-dashboard:something-else", code: "wrong-type" }, window.location.origin, popup);
    post("not an object", window.location.origin, popup);
    post({ type: SIGNED_IN_MESSAGE, code: "from-popup" }, window.location.origin, popup);
    await expect(result).resolves.toMatchObject({ code: "from-popup" });
  });

  it("checklist 68: rejects at once when the popup is blocked", async () => {
    vi.spyOn(window, "open").mockReturnValue(null);
    await expect(openPopupAndAwait("/api/auth/login", "sign-in", SIGNED_IN_MESSAGE).result).rejects.toThrow("popup_blocked");
  });
});

describe("the popup's last page says what became of the sign-in", () => {
  /** The panel that opened the popup: it takes the code and answers as openPopupAndAwait does, from `answerFrom`. */
  function waitingPanel(answerFrom?: { origin?: string; source?: HappyWindow }) {
    const opener = windowAt(`${window.location.origin}/`);
    opener.addEventListener("message", (event) => {
      const { data } = event as unknown as MessageEvent<{ type: string }>;
      if (data.type !== SIGNED_IN_MESSAGE) return;
      window.dispatchEvent(
        new window.MessageEvent("message", {
          data: { type: RECEIVED_MESSAGE, of: SIGNED_IN_MESSAGE },
          origin: answerFrom?.origin ?? window.location.origin,
          source: (answerFrom?.source ?? opener) as unknown as MessageEventSource,
        }),
      );
    });
    return opener;
  }

  it("taken by the panel that opened it: signed in, the window closes", async () => {
    withOpener(waitingPanel());
    const close = vi.spyOn(window, "close").mockImplementation(() => undefined);
    window.history.replaceState(null, "", "/auth/popup-done#handoff=code-1");
    renderInLocale(createElement(PopupDone), "en");
    expect(screen.getByRole("heading", { name: "Finishing your sign-in…" })).toBeTruthy();
    expect(await screen.findByRole("heading", { name: "You're signed in" })).toBeTruthy();
    expect(window.location.hash).toBe("");
    await waitFor(() => expect(close).toHaveBeenCalled());
  });

  it.each([
    ["an opener that navigated since (no page waiting answers)", () => windowAt(`${window.location.origin}/courses`)],
    ["an answer from another origin", () => waitingPanel({ origin: "https://evil.example" })],
    ["an answer from another window", () => waitingPanel({ source: windowAt(`${window.location.origin}/orders`) })],
  ])("not taken (%s): not claimed as signed in; the window stays open with a way on", async (_name, opener) => {
    withOpener(opener());
    const close = vi.spyOn(window, "close").mockImplementation(() => undefined);
    window.history.replaceState(null, "", "/auth/popup-done#handoff=code-3");
    const startedAt = Date.now();
    renderInLocale(createElement(PopupDone), "en");
    expect(screen.getByRole("heading", { name: "Finishing your sign-in…" })).toBeTruthy();
    const lost = await screen.findByRole(
      "heading",
      { name: "Your sign-in could not reach the panel" },
      { timeout: HANDOFF_ACK_TIMEOUT_MS + 2_000 },
    );
    expect(lost).toBeTruthy();
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(HANDOFF_ACK_TIMEOUT_MS - 50);
    expect(screen.queryByText("You're signed in")).toBeNull();
    expect(screen.getByRole("link", { name: "Open the dashboard here" })).toBeTruthy();
    expect(close).not.toHaveBeenCalled();
  });

  it("with no panel left to take it: not claimed as signed in; signing in here is offered", async () => {
    withOpener(null);
    window.history.replaceState(null, "", "/auth/popup-done?lang=zh-TW#handoff=code-2");
    renderInLocale(createElement(PopupDone), "zh-TW");
    expect(await screen.findByRole("heading", { name: "登入無法傳回面板" })).toBeTruthy();
    expect(screen.queryByText("你已登入")).toBeNull();
    expect(screen.getByRole("link", { name: "在這裡開啟儀表板" }).getAttribute("href")).toBe("/api/auth/login?returnTo=%2F");
    // The code is gone from the address; the panel's language stays, for a reload of this window.
    expect(window.location.hash).toBe("");
    expect(window.location.pathname + window.location.search).toBe("/auth/popup-done?lang=zh-TW");
  });
});
