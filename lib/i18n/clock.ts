/**
 * The clock pages are rendered with: minute precision, on the server and in the browser alike. The browser's
 * clock (I18nProvider) ticks once a minute; the server renders with the start of the current minute, so a
 * page hydrated within that minute has nothing to render again (a different "now" would make React render
 * every component that reads the clock a second time while hydrating: issue 26, blocking time on a phone).
 */
export const MINUTE_MS = 60_000;

/** The start of the minute `epochMs` falls in. */
export function startOfMinute(epochMs: number): number {
  return Math.floor(epochMs / MINUTE_MS) * MINUTE_MS;
}

/** "Now" for a render, in epoch milliseconds: the start of the current minute. */
export function renderClock(): number {
  return startOfMinute(Date.now());
}
