import type { Metadata } from "next";

import { SignedOutLanding, type SiteSessionAfterSignOut } from "@/components/layout/signed-out-landing";
import { readEndSessionState } from "@/lib/auth/end-session";
import { sanitizeReturnTo } from "@/lib/auth/return-to";
import { getSiteName } from "@/lib/auth/site-name";
import { getConfig } from "@/lib/config";
import { isSignedOutReason, type SignedOutReason } from "@/lib/contract/paths";
import { getMessages } from "@/lib/i18n";

import { getRequestLocale } from "../_lib/request-locale";

export async function generateMetadata(): Promise<Metadata> {
  const { locale } = await getRequestLocale();
  return { title: getMessages(locale).signedOutPage.title };
}

/** Reasons after which the site's own session is untouched unless the member went through its end-session endpoint. */
const SITE_SESSION_KEPT: readonly SignedOutReason[] = ["signed_out", "signed_out_locally", "revoked", "revoke_refused"];

/**
 * The signed-out page. Back from the site's end-session endpoint (RP-Initiated Logout 1.0), only a
 * `state` this dashboard sealed for a sign-out is believed; a missing or changed one lands here all the
 * same, and the page then claims nothing about the site (checklist case 63).
 */
export default async function SignedOutPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { reason: reasonParam, state, returnTo: returnToParam } = await searchParams;
  // Where Sign in leads back to: a same-origin path only (OWASP ASVS 5 V3.7.2), else the overview.
  const returnTo = sanitizeReturnTo(typeof returnToParam === "string" ? returnToParam : undefined, getConfig().appUrl);
  let reason: SignedOutReason = isSignedOutReason(reasonParam) ? reasonParam : "signed_out";
  let siteSession: SiteSessionAfterSignOut | null = SITE_SESSION_KEPT.includes(reason) ? "open" : null;
  if (state !== undefined) {
    const returned = await readEndSessionState(typeof state === "string" ? state : undefined);
    reason = returned ?? "signed_out";
    siteSession = returned ? "ended" : "unconfirmed";
  }
  const site = { name: await getSiteName(), url: getConfig().siteUrl };
  // Inside the site's page the landing offers the panel's popup sign-in (components/layout/embedding-context.tsx).
  return <SignedOutLanding reason={reason} returnTo={returnTo} siteSession={siteSession} site={site} />;
}
