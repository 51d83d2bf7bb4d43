"use client";

import { useSyncExternalStore } from "react";

function subscribeToNothing(): () => void {
  return () => undefined;
}

/**
 * A value only the browser can read and that does not change while the page is open (its time zone,
 * the address, a cookie): `serverValue` in the server's render and in hydration, so the HTML matches,
 * then what `readInBrowser` returns.
 */
export function useBrowserValue<T>(readInBrowser: () => T, serverValue: T): T {
  return useSyncExternalStore(subscribeToNothing, readInBrowser, () => serverValue);
}
