"use client";

import { useEffect, type RefObject } from "react";

/**
 * Where keyboard focus goes back to after a page of its own is left with Cancel (the revoke confirmation):
 * the control that opened it, on the page the member returns to. Held in memory for the next page only
 * (a client-side navigation keeps this module), never stored.
 */
let pendingReturn: string | null = null;

/** Called before leaving for the page that `control` names, e.g. `returnFocusTo("revoke-access")`. */
export function returnFocusTo(control: string): void {
  pendingReturn = control;
}

/** Focuses `ref` once, when the page it is on was reached through returnFocusTo(`control`). */
export function useFocusOnReturn(control: string, ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (pendingReturn !== control) return;
    pendingReturn = null;
    ref.current?.focus();
  }, [control, ref]);
}

/**
 * Focuses `ref` (a heading with tabIndex -1) when its page appears, unless the member has already put
 * focus somewhere on it: a page reached by a button that it replaced would otherwise leave focus on <body>.
 */
export function useFocusOnArrival(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body || active === document.documentElement) ref.current?.focus();
  }, [ref]);
}
