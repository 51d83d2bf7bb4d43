import { afterEach, vi } from "vitest";

import { accessTokenRenewalTime } from "@/lib/auth/token-times";

/**
 * For the tests of the file or `describe` that calls it: `comeBackWhenRenewalIsDue(lifetimeSeconds)` moves
 * the clock (Date alone; timers keep running) on to a second after an access token of that lifetime, issued
 * now, is due for renewal (accessTokenRenewalTime), as when the member comes back later; the clock is real
 * again after each test. The sandbox runs in the same process, so it reads the same clock.
 */
export function renewalClock(): { comeBackWhenRenewalIsDue: (lifetimeSeconds: number) => void } {
  afterEach(() => {
    vi.useRealTimers();
  });
  return {
    comeBackWhenRenewalIsDue: (lifetimeSeconds) => {
      const now = Date.now();
      const later = accessTokenRenewalTime(now, now + lifetimeSeconds * 1000) + 1_000;
      if (vi.isFakeTimers()) vi.setSystemTime(later);
      else vi.useFakeTimers({ toFake: ["Date"], now: later, shouldAdvanceTime: true });
    },
  };
}
