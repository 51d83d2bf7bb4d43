"use client";

import { useState } from "react";

/** What the element of one list item takes: the first new one after "Show more" holds focus. */
export interface NewItemFocusProps {
  ref?: (element: HTMLElement | null) => void;
  tabIndex?: number;
}

const NO_FOCUS: NewItemFocusProps = {};

/** Focuses the element when it is attached: the item may appear in the same render as the press, or later, once its page arrives. */
function focusWhenAttached(element: HTMLElement | null): void {
  element?.focus();
}

const TAKES_FOCUS: NewItemFocusProps = { ref: focusWhenAttached, tabIndex: -1 };

/**
 * Keyboard focus for a list's "Show more" (WCAG 2.2 SC 2.4.3, focus order): the first item that appears
 * after the press, in the order the list shows them, takes focus and is read out, so a keyboard or
 * screen-reader user goes on from there. Without it, focus falls to the top of the page when the last
 * page arrives and the button goes away. `shownKeys`: the keys of the items shown, in the order shown.
 * The item keeps its tabIndex -1 until the next press (removing it would drop focus again); items that
 * appear later on their own (a refetch) never take focus.
 */
export function useFirstNewItemFocus(shownKeys: readonly string[]): {
  /** Called on the press: the next item shown that is not shown now takes focus. */
  markShown: () => void;
  /** The props for the element of the item `key`. */
  focusProps: (key: string) => NewItemFocusProps;
} {
  const [shownAtPress, setShownAtPress] = useState<ReadonlySet<string> | null>(null);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  if (shownAtPress) {
    // Derived from this render's items, as React allows for state that follows props.
    const firstNew = shownKeys.find((key) => !shownAtPress.has(key));
    if (firstNew !== undefined) {
      setShownAtPress(null);
      setFocusedKey(firstNew);
    }
  }
  return {
    markShown: () => setShownAtPress(new Set(shownKeys)),
    focusProps: (key) => (key === focusedKey ? TAKES_FOCUS : NO_FOCUS),
  };
}
