/**
 * When an access token expires and when it is due for renewal: plain arithmetic on times, no secret and no
 * call, so the browser suites can wait for a renewal by the same rule (tests/support/renewal-wait.ts).
 */

/** Refresh this long before the access token expires, so no request goes out with a token about to lapse. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * When a token issued at `issuedAt` that expires at `expiresAt` is due for renewal: REFRESH_MARGIN_MS before
 * it expires, or half-way through its life when it lives less than twice that. The site publishes no
 * lifetime (RFC 6749 section 5.1 leaves it to the site): at a site of 30-second tokens, the margin alone
 * would renew, and rotate the refresh token, for every request.
 */
export function accessTokenRenewalTime(issuedAt: number, expiresAt: number): number {
  return expiresAt - Math.min(REFRESH_MARGIN_MS, Math.max(0, expiresAt - issuedAt) / 2);
}

/**
 * Assumed when a token response omits `expires_in` (RFC 6749 section 5.1 only recommends it). The site
 * publishes no lifetime; one hour errs towards refreshing early (docs/architecture.md section 6.5).
 */
export const DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

/** An access token's expiry and renewal time, from its token response's `expires_in`. */
export function accessTokenTimes(
  expiresIn: number | undefined,
  issuedAt = Date.now(),
): { accessTokenExpiresAt: number; accessTokenRenewAt: number } {
  const expiresAt = issuedAt + (expiresIn ?? DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS) * 1000;
  return { accessTokenExpiresAt: expiresAt, accessTokenRenewAt: accessTokenRenewalTime(issuedAt, expiresAt) };
}
