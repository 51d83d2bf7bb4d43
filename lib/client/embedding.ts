/** Messages between the dashboard's popup windows and the embedded dashboard that opened them. */
export const SIGNED_IN_MESSAGE = "companion-dashboard:signed-in";
export const REVOKE_CONFIRMED_MESSAGE = "companion-dashboard:revoke-confirmed";
/** The frame's answer to a popup's message: it was taken by the very page that opened the popup. */
export const RECEIVED_MESSAGE = "companion-dashboard:received";

/** How long a popup waits for the frame to say it took the message before telling the member it did not. */
export const HANDOFF_ACK_TIMEOUT_MS = 4_000;

/** True inside a frame (the dashboard embedded in the site's page). */
export function isInFrame(): boolean {
  if (typeof window === "undefined") return false;
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}

/**
 * Whether the browser would open a window now: only within a few seconds of the member's press (HTML's
 * transient activation). A press made before the page was interactive and acted on after a long load has
 * none left, and the window would be refused as if pop-ups were blocked. Browsers without the
 * UserActivation API are let try.
 */
export function pressIsRecentEnoughForAWindow(): boolean {
  return !("userActivation" in navigator) || navigator.userActivation.isActive;
}

/**
 * Opens a popup on the dashboard's own origin and resolves with the first message it posts back, accepting
 * only a message from that very window, from exactly our origin, of the expected type. Anything else
 * (another origin, another window, a forged type) is ignored.
 */
export function openPopupAndAwait<T extends { type: string }>(
  url: string,
  name: string,
  expectedType: string,
): { popup: Window | null; result: Promise<T> } {
  const popup = window.open(url, name, "popup,width=520,height=720");
  const result = new Promise<T>((resolve, reject) => {
    if (!popup) {
      reject(new Error("popup_blocked"));
      return;
    }
    const onMessage = (event: MessageEvent<unknown>) => {
      if (event.origin !== window.location.origin || event.source !== popup) return;
      const data = event.data as { type?: unknown } | null;
      if (!data || data.type !== expectedType) return;
      cleanup();
      // Tells the popup that this page, the one that is waiting, took it (handToOpener).
      popup.postMessage({ type: RECEIVED_MESSAGE, of: expectedType }, window.location.origin);
      resolve(data as T);
    };
    const closedPoll = window.setInterval(() => {
      if (popup.closed) {
        cleanup();
        reject(new Error("popup_closed"));
      }
    }, 500);
    function cleanup() {
      window.removeEventListener("message", onMessage);
      window.clearInterval(closedPoll);
    }
    window.addEventListener("message", onMessage);
  });
  return { popup, result };
}

/** Tells the embedded dashboard that opened this popup, addressed to exactly our origin (never "*"). */
export function notifyOpener(message: { type: string } & Record<string, unknown>): boolean {
  const opener = window.opener as Window | null;
  if (!opener) return false;
  opener.postMessage(message, window.location.origin);
  return true;
}

/**
 * Hands a message to the page that opened this popup and resolves true once that page says it took it.
 * The opener may have navigated since it opened the popup (the site reloaded the panel, the member went to
 * another page): the message then reaches a page that is not waiting, or no page of ours at all, and is lost.
 * Without the answer within HANDOFF_ACK_TIMEOUT_MS it resolves false, so the popup never claims a handoff
 * that did not happen. The answer is taken only from the opener, at exactly our origin.
 */
export function handToOpener(message: { type: string } & Record<string, unknown>): Promise<boolean> {
  const opener = window.opener as Window | null;
  if (!opener) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent<unknown>) => {
      if (event.origin !== window.location.origin || event.source !== opener) return;
      const data = event.data as { type?: unknown; of?: unknown } | null;
      if (!data || data.type !== RECEIVED_MESSAGE || data.of !== message.type) return;
      finish(true);
    };
    const timer = setTimeout(() => finish(false), HANDOFF_ACK_TIMEOUT_MS);
    function finish(taken: boolean) {
      window.removeEventListener("message", onMessage);
      clearTimeout(timer);
      resolve(taken);
    }
    window.addEventListener("message", onMessage);
    notifyOpener(message);
  });
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A secret for the handoff and its S256 hash (the binding sent with the popup's sign-in). */
export async function newHandoffSecret(): Promise<{ verifier: string; binding: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, binding: base64url(digest) };
}
