// @vitest-environment happy-dom
/**
 * The panel's "Sign in" is a link to the top-level sign-in in a new tab, turned into the popup sign-in by the
 * script: a tap before hydration still signs in (tests/e2e/embedded.spec.ts shows it in Chromium), a plain
 * click once hydrated opens the popup instead, and a ctrl- or shift-click keeps the link's own new tab.
 */
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { EmbeddedSignIn } from "@/components/layout/embedded-sign-in";
import { SIGNED_IN_MESSAGE } from "@/lib/client/embedding";

import { renderInLocale } from "../../support/render-ui";

let openSpy: ReturnType<typeof vi.fn>;

beforeEach(() => {
  // The popup is refused here: the test looks only at whether, and where, the script opened one.
  openSpy = vi.fn(() => null);
  vi.stubGlobal("open", openSpy);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderSignIn(returnTo: string, locale: "en" | "zh-TW" = "en"): HTMLElement {
  renderInLocale(createElement(EmbeddedSignIn, { returnTo }), locale);
  return screen.getByRole("link", { name: locale === "en" ? "Sign in" : "登入" });
}

describe("the embedded panel's Sign in", () => {
  it.each([
    ["/courses", "/api/auth/login?returnTo=%2Fcourses"],
    // The prerendered signed-out page knows its returnTo only once hydrated: before, the route reads its Referer.
    ["/", "/api/auth/login"],
  ])("without its script, is a same-origin-referring link to the sign-in in a new tab (returnTo %s)", (returnTo, href) => {
    const link = renderSignIn(returnTo);
    expect(link.getAttribute("href")).toBe(href);
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener");
    expect(link.getAttribute("referrerpolicy")).toBe("same-origin");
  });

  it("asks the popup for the panel's language, which the popup's own cookies do not know", async () => {
    fireEvent.click(renderSignIn("/courses", "zh-TW"));
    await vi.waitFor(() => expect(openSpy).toHaveBeenCalledTimes(1));
    expect(openSpy.mock.calls[0]?.[0]).toMatch(/&lang=zh-TW$/);
  });

  it("opens the popup sign-in, bound to this frame's handoff, on a plain click", async () => {
    const link = renderSignIn("/courses");
    // The live region is there, empty, before anything is said in it, so that what is said is read out.
    expect(screen.getByRole("status").textContent).toBe("");
    const followed = fireEvent.click(link);
    expect(followed, "the link's own new tab was not prevented").toBe(false);
    await vi.waitFor(() => expect(openSpy).toHaveBeenCalledTimes(1));
    expect(openSpy.mock.calls[0]?.[0]).toMatch(/^\/api\/auth\/login\?display=popup&binding=[\w-]{43}&lang=en$/);
    // The window was refused here: the panel says so, and how to go on.
    expect((await screen.findByRole("status")).textContent).toBe(
      "Your browser blocked the sign-in window. Allow pop-ups for this site, or open the dashboard in a new tab.",
    );
  });

  // A middle click (button 1) too, where a browser sends it as a click; alt-click is the browser's download.
  it.each([{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }])(
    "leaves a modified or middle click (%o) to the browser",
    async (modifier) => {
      const link = renderSignIn("/courses");
      // Seen after the page's own handler, then stopped here: happy-dom would follow the link.
      let preventedByThePage: boolean | null = null;
      window.addEventListener(
        "click",
        (event) => {
          preventedByThePage = event.defaultPrevented;
          event.preventDefault();
        },
        { once: true },
      );
      fireEvent.click(link, modifier);
      expect(preventedByThePage).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(openSpy).not.toHaveBeenCalled();
    },
  );
});

describe("the handoff of a popup sign-in, past the dashboard's sign-in rate limit", () => {
  /** A popup that signs in and hands its code back; the handoff then answers as `handoff` says. */
  async function signInThroughPopup(handoff: Response, locale: "en" | "zh-TW" = "en"): Promise<string> {
    const popup = { closed: false, postMessage: vi.fn() };
    openSpy.mockImplementation(() => popup);
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(handoff)),
    );
    fireEvent.click(renderSignIn("/courses", locale));
    await vi.waitFor(() => expect(openSpy).toHaveBeenCalledTimes(1));
    window.dispatchEvent(
      new MessageEvent("message", {
        origin: window.location.origin,
        source: popup as unknown as Window,
        data: { type: SIGNED_IN_MESSAGE, code: "c" },
      }),
    );
    await vi.waitFor(() => expect(screen.getByRole("status").textContent).not.toMatch(/^(|Finish signing in.*|請在.*)$/));
    return screen.getByRole("status").textContent ?? "";
  }

  const limited = (body: Record<string, unknown>) =>
    new Response(JSON.stringify({ error: { code: "rate_limited", message: "Too many attempts.", detail: "client", ...body } }), {
      status: 429,
      headers: { "content-type": "application/json" },
    });

  it("says too many attempts came from here, and how long to wait, in the panel's language", async () => {
    expect(await signInThroughPopup(limited({ retryAfterSeconds: 40 }))).toBe(
      "Too many attempts from here. Please try again in 40\u00a0seconds.",
    );
    cleanup();
    openSpy.mockReset();
    expect(await signInThroughPopup(limited({}), "zh-TW")).toBe("這裡的嘗試次數過多，請稍候再試。");
  });

  it("says sign-in did not complete for any other refusal", async () => {
    const refused = new Response(JSON.stringify({ error: { code: "login_expired", message: "No." } }), { status: 400 });
    expect(await signInThroughPopup(refused)).toBe("Signing in did not complete. Please try again.");
  });
});
