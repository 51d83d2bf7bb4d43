import { PAGE_PATHS, type SignedOutReason } from "@/lib/contract/paths";
import { LOCALES, type Locale } from "@/lib/i18n/locales";

/**
 * The signed-out page is prerendered once per language, framing, reason and what is known of the site's
 * session, and the proxy serves `/signed-out?…` from the copy that fits the request (proxy.ts): the page
 * is the same for every member, so no render per request. Client-safe.
 */

/** What is known of the member's session at the site after signing out here. */
export type SiteSessionAfterSignOut = "ended" | "open" | "unconfirmed";

/** `page`: the dashboard's own tab; `framed`: the companion panel inside the site's page. */
export const FRAMINGS = ["page", "framed"] as const;
export type Framing = (typeof FRAMINGS)[number];

const REASONS: readonly SignedOutReason[] = [
  "revoked",
  "signed_out",
  "signed_out_locally",
  "revoke_refused",
  "expired",
  "access_withdrawn",
];

/** Reasons after which the site's own session is untouched unless the member went through its end-session endpoint. */
const SITE_SESSION_KEPT: readonly SignedOutReason[] = ["signed_out", "signed_out_locally", "revoke_refused", "revoked"];

export interface SignedOutNotice {
  reason: SignedOutReason;
  siteSession: SiteSessionAfterSignOut | null;
}

export interface SignedOutCopy extends SignedOutNotice {
  locale: Locale;
  framing: Framing;
}

/**
 * What the page says, from its query: `reason` alone (the site's session is then still open after a
 * sign-out that did not pass through the site's end-session endpoint), or the reason a returning `state`
 * carries once opened (`returned`: null when a `state` came back missing, changed, expired or not ours;
 * undefined when none came back). A changed `state` claims nothing about the site (checklist case 63).
 */
export function signedOutNotice(reasonParam: SignedOutReason | null, returned?: SignedOutReason | null): SignedOutNotice {
  if (returned === null) return { reason: "signed_out", siteSession: "unconfirmed" };
  if (returned !== undefined) return { reason: returned, siteSession: "ended" };
  const reason = reasonParam ?? "signed_out";
  return { reason, siteSession: SITE_SESSION_KEPT.includes(reason) ? "open" : null };
}

/** Every notice the page can show: each reason as it comes, each after the site's sign-out, and the unconfirmed one. */
function reachableNotices(): SignedOutNotice[] {
  const notices = REASONS.flatMap((reason) => [signedOutNotice(reason), signedOutNotice(null, reason)]);
  notices.push(signedOutNotice(null, null));
  return notices;
}

/** Every prerendered copy of the signed-out page. */
export function signedOutCopies(): SignedOutCopy[] {
  return LOCALES.flatMap((locale) => FRAMINGS.flatMap((framing) => reachableNotices().map((notice) => ({ locale, framing, ...notice }))));
}

/** The copy's own path, under which Next.js prerenders it: `/signed-out/<locale>/<framing>/<reason>/<site>`. */
export function signedOutCopyPath(copy: SignedOutCopy): string {
  return [PAGE_PATHS.signedOut, copy.locale, copy.framing, copy.reason, copy.siteSession ?? "none"].join("/");
}

/** The route segments of a copy (the page's `params`), back into what the page says; null for no copy. */
export function signedOutCopyOf(params: { locale: string; framing: string; reason: string; site: string }): SignedOutCopy | null {
  const found = signedOutCopies().find(
    (copy) =>
      copy.locale === params.locale &&
      copy.framing === params.framing &&
      copy.reason === params.reason &&
      // The site's session in the path: one of the three, or `none` when the page says nothing of it.
      (copy.siteSession ?? "none") === params.site,
  );
  return found ?? null;
}
