"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/** How long a destructive button stays inert after its page appears, comes back into view or regains focus. */
export const ARMING_DELAY_MS = 700;

/**
 * False until the page has been visible, without losing focus, for ARMING_DELAY_MS; false again whenever
 * it is hidden or loses focus. A destructive button disabled while this is false cannot be clicked
 * through: not by a double-click staged in another window that opens or raises this one under the
 * pointer (double-clickjacking), nor by a click meant for a page that was just replaced
 * (OWASP Clickjacking Defense Cheat Sheet; ASVS 5 V3.4.6). Rendered false on the server.
 */
export function useArmedAfterAppearing(delayMs = ARMING_DELAY_MS): boolean {
  return useDeliberateClick(delayMs).armed;
}

/**
 * The same arming, for a button that keeps its normal look while it is not armed: `armed` for rendering
 * (`aria-disabled`), and `isArmedNow()` for the click handler, which reads the state the window events
 * left, not the last render's, so a press in the same task as the window's focus or blur is judged by it.
 * A press while not armed must do nothing but say so: the protection is that no action follows it.
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
