/**
 * Every path of the dashboard that code names: the BFF's routes (docs/architecture.md section 4) and the
 * pages. Used by route handlers, server redirects and components alike. Client-safe.
 */
export const API_ROUTES = {
  login: "/api/auth/login",
  callback: "/api/auth/callback",
  logout: "/api/auth/logout",
  endSession: "/api/auth/end-session",
  revoke: "/api/auth/revoke",
  embedded: "/api/auth/embedded",
  session: "/api/session",
  health: "/api/health",
  ready: "/api/ready",
  metrics: "/api/metrics",
  connections: "/api/account/connections",
  sessions: "/api/sessions",
  endSessions: "/api/sessions/end",
  site: "/api/site",
} as const;

export const PAGE_PATHS = {
  overview: "/",
  courses: "/courses",
  orders: "/orders",
  events: "/events",
  settings: "/settings",
  revoke: "/settings/revoke",
  signedOut: "/signed-out",
  signInProblem: "/sign-in-problem",
  popupDone: "/auth/popup-done",
} as const;

/** The longest wait the dashboard repeats to a member (a site's `Retry-After`, a rate limit's window): a day. */
export const LONGEST_WAIT_SECONDS = 24 * 60 * 60;

/** The sign-in problem page's parameter for how many seconds the member waits before trying again (a rate limit). */
export const RETRY_AFTER_PARAM = "retryAfter";

/** The wait a sign-in problem page's address names, if it is a whole number of seconds it may repeat. */
export function signInWaitOf(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d{1,5}$/.test(value)) return undefined;
  const seconds = Number(value);
  return seconds >= 1 && seconds <= LONGEST_WAIT_SECONDS ? seconds : undefined;
}

/** `/api/auth/login?returnTo=<path>`: sign in, then come back to `returnTo` (a same-origin path; else the overview). */
export function loginPath(returnTo: string): string {
  const path = returnTo.startsWith("/") && !returnTo.startsWith("//") ? returnTo : PAGE_PATHS.overview;
  return `${API_ROUTES.login}?returnTo=${encodeURIComponent(path)}`;
}

/**
 * The address of a signed-out landing's "Sign in" link. For the overview it is the bare sign-in route: the
 * prerendered signed-out page knows its own `returnTo` only once its scripts have run, so a link tapped
 * before then sends nothing and lets the route read it from the Referer (lib/auth/login.ts,
 * returnToOfSignedOutPage); the link's referrerPolicy must then be "same-origin".
 */
export function signInLinkPath(returnTo: string): string {
  return returnTo === PAGE_PATHS.overview ? API_ROUTES.login : loginPath(returnTo);
}

/**
 * Why the member lands on the signed-out page. `signed_out_locally`: signed out here, but the site did
 * not confirm the revocation; `revoke_refused`: signed out here, but the site refused to revoke;
 * `access_withdrawn`: the site refused to renew access (its token endpoint answered 400 or 401).
 */
const SIGNED_OUT_REASONS = ["revoked", "signed_out", "signed_out_locally", "revoke_refused", "expired", "access_withdrawn"] as const;
export type SignedOutReason = (typeof SIGNED_OUT_REASONS)[number];

export function isSignedOutReason(value: unknown): value is SignedOutReason {
  return SIGNED_OUT_REASONS.some((reason) => reason === value);
}

/** `/signed-out?reason=<reason>`, with the page to sign in again to when there is one to go back to. */
export function signedOutPath(reason: SignedOutReason, returnTo?: string): string {
  const back = returnTo && returnTo !== PAGE_PATHS.overview ? `&returnTo=${encodeURIComponent(returnTo)}` : "";
  return `${PAGE_PATHS.signedOut}?reason=${reason}${back}`;
}
