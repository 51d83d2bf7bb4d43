"use client";

import { useEffect, useState } from "react";

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
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const disarm = () => {
      clearTimeout(timer);
      setArmed(false);
    };
    const rearm = () => {
      disarm();
      if (document.visibilityState === "visible") timer = setTimeout(() => setArmed(true), delayMs);
    };
    rearm();
    window.addEventListener("focus", rearm);
    window.addEventListener("blur", disarm);
    document.addEventListener("visibilitychange", rearm);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("focus", rearm);
      window.removeEventListener("blur", disarm);
      document.removeEventListener("visibilitychange", rearm);
    };
  }, [delayMs]);
  return armed;
}
