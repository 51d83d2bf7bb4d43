"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/** How long a destructive button stays inert after its page appears, comes back into view or regains focus. */
export const ARMING_DELAY_MS = 700;

/**
 * Arms a destructive button: `armed` is false until the page has been visible, without losing focus, for
 * ARMING_DELAY_MS, and false again whenever it is hidden or loses focus. The button keeps its normal look
 * meanwhile: render `aria-disabled` from `armed`, and have its click handler check `isArmedNow()`, which
 * reads the state the window events left, not the last render's, so a press in the same task as the
 * window's focus or blur is judged by it. A press while not armed must do nothing but say so (the
 * protection is that no action follows it; it is never queued). So the button cannot be clicked through:
 * not by a double-click staged in another window that opens or raises this one under the pointer
 * (double-clickjacking), nor by a click meant for a page that was just replaced (OWASP Clickjacking
 * Defense Cheat Sheet; ASVS 5 V3.4.6). Not armed on the server.
 */
export function useDeliberateClick(delayMs = ARMING_DELAY_MS): { armed: boolean; isArmedNow: () => boolean } {
  const [armed, setArmed] = useState(false);
  const armedNow = useRef(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const set = (value: boolean) => {
      armedNow.current = value;
      setArmed(value);
    };
    const disarm = () => {
      clearTimeout(timer);
      set(false);
    };
    const rearm = () => {
      disarm();
      if (document.visibilityState === "visible") timer = setTimeout(() => set(true), delayMs);
    };
    rearm();
    window.addEventListener("focus", rearm);
    window.addEventListener("blur", disarm);
    document.addEventListener("visibilitychange", rearm);
    return () => {
      clearTimeout(timer);
      armedNow.current = false;
      window.removeEventListener("focus", rearm);
      window.removeEventListener("blur", disarm);
      document.removeEventListener("visibilitychange", rearm);
    };
  }, [delayMs]);
  const isArmedNow = useCallback(() => armedNow.current, []);
  return { armed, isArmedNow };
}
