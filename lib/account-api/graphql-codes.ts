/**
 * `extensions.code`s by which GraphQL servers refuse a caller they do not know, with or without 401:
 * Apollo Server's and the servers in its manner (`UNAUTHENTICATED`), Hot Chocolate's
 * (`AUTH_NOT_AUTHENTICATED`). Read by the Account API client (a refused token) and the doctor. No
 * server-only import: the doctor runs outside Next.js.
 */
export const UNAUTHENTICATED_CODES: ReadonlySet<unknown> = new Set(["UNAUTHENTICATED", "AUTH_NOT_AUTHENTICATED"]);

/**
 * Codes (in `extensions.code`, or the `type` GitHub puts beside `message`) by which sites say they limit how
 * often they answer: Shopify's, GitHub's.
 */
export const THROTTLED_CODES: ReadonlySet<unknown> = new Set(["THROTTLED", "RATE_LIMITED", "TOO_MANY_REQUESTS"]);
