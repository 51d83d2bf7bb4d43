import { accessTokenRenewalTime } from "../../lib/auth/token-times";

/**
 * Waits, in real time, until an access token of `lifetimeSeconds` issued now is due for renewal
 * (accessTokenRenewalTime), and a quarter of a second more: for tests of dashboard processes, whose
 * clocks a test cannot move (the process suites and the browser journeys).
 */
export function untilRenewalIsDue(lifetimeSeconds: number): Promise<void> {
  const dueAfterMs = accessTokenRenewalTime(0, lifetimeSeconds * 1000) + 250;
  return new Promise((resolve) => setTimeout(resolve, dueAfterMs));
}
